import LazyInject

// An app's module, for the checks of what linked packages require (Tests/LinkedFixtures): its own
// class resolves by `init()`, so its check fails only on what the packages require.

/// Built by `init()`.
public final class AppClock: DefaultInitializable {
  /// A clock.
  public init() {}
}

/// The app's one screen.
public final class AppHome {
  /// Resolves by `init()`.
  @Lazy public var clock: AppClock

  /// A screen whose clock is not built yet.
  public init() {}
}

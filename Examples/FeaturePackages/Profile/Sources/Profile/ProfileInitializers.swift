import Core
import LazyInject

/// The Profile package's rules, installed into `InitializerRegistry.shared` by every program that
/// links the package: the app lists none of them.
///
/// `public`, so that an optimized build keeps its conformance, which no code names.
public struct ProfileInitializers: LinkedModule {
  /// Creates the module.
  public init() {}

  /// Registers what Profile can build, and requires what the program must provide.
  public func register(in registry: InitializerRegistry) {
    // The model reads its screen: the initializer receives it, typed.
    registry.registerOnMainActor(ProfileViewModel.self, in: ProfileViewController.self) { screen in
      ProfileViewModel(userName: screen.userName)
    }
    // The app registers the client; the Feed package, the loader. Profile depends on neither.
    registry.require((any AnalyticsClient).self)
    registry.require((any FeedLoading).self)
  }
}

// Built with -disable-reflection-metadata: the standard library's field reflection lists no
// stored property of these classes, which must not pass a check as "nothing to check".
import LazyInject

/// A dependency.
public final class StrippedService {}

/// A class whose `@Lazy` property reflection cannot see.
public final class StrippedScreen {
  /// Never registered.
  @Lazy public var service: StrippedService

  /// Makes an object, for `validate(_:)`.
  public init() {}
}

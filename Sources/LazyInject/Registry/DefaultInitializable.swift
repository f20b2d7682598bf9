/// A type LazyInject can build with `init()` when no initializer is registered for it.
///
/// ```swift
/// final class ProgressViewService: DefaultInitializable {
///   init() {}
/// }
///
/// final class ViewController {
///   @Lazy var progressViewService: ProgressViewService  // built with init() on first read
/// }
/// ```
///
/// A registration for the type, for any container, always wins over `init()`.
public protocol DefaultInitializable {
  /// Creates the value a `@Lazy` property gets when no initializer is registered for its type.
  init()
}

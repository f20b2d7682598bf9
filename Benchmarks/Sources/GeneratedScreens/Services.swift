import LazyInject

/// The type of every generated service (`Service0` to `Service49`, generated with the screens):
/// half get a registered root default in the benchmark, the other half are built with `init()`.
public protocol GeneratedService: AnyObject, DefaultInitializable, Sendable {}

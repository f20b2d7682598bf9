/// A container that wants to know when its `@Lazy` properties are resolved: the Swift form of
/// BloodMagic's `<property>Injected:` hook.
///
/// ```swift
/// final class UsersViewController: UIViewController, @MainActor InjectionObserving {
///   @Lazy var resourceLoader: ResourceLoader
///
///   func didInject(_ value: Any, intoPropertyNamed name: String) {
///     if name == "resourceLoader" {
///       resourceLoader.delegate = self
///     }
///   }
/// }
/// ```
///
/// A `@MainActor` class, such as a view controller, declares the conformance isolated to the main
/// actor, as above, so that `didInject` is a main-actor method like the others.
///
/// LazyInject calls it once per resolution, after the value is stored and on the thread that read
/// the property; not for values assigned directly. The property is named, not given as a key
/// path: building a key path object would cost every read of every `@Lazy` property about
/// 13 ns (measured), where the name is found by reflection only when an observer exists.
public protocol InjectionObserving: AnyObject {
  /// Called after the `@Lazy` property `name` of this object received `value`.
  ///
  /// - Parameters:
  ///   - value: The value just resolved.
  ///   - name: The property's name, as declared (`"resourceLoader"`).
  func didInject(_ value: Any, intoPropertyNamed name: String)
}

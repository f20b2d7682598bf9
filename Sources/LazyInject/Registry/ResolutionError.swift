/// Why the registry could not build a value.
///
/// ``InitializerRegistry/resolve(_:for:)`` throws it; a `@Lazy` property stops the program with
/// its ``description``. The message says what was asked, where LazyInject looked, what is
/// registered, and how to fix it:
///
/// ```text
/// LazyInject could not build MyApp.ResourceLoader for MyApp.SettingsViewController.resourceLoader.
/// Searched, in order: MyApp.SettingsViewController, MyApp.ViewController, then the root default.
/// MyApp.ResourceLoader is registered only for:
///   - MyApp.UsersViewController (LoaderInitializers.swift:12)
/// MyApp.ResourceLoader is not DefaultInitializable, so init() was not tried.
/// Fix: register an initializer for this container or one of its superclasses (leave out `in:`
/// for a root default, for every container). For a main-actor type (in an app target with
/// default main-actor isolation, every type not marked nonisolated):
///   registry.registerOnMainActor(MyApp.ResourceLoader.self, in: MyApp.SettingsViewController.self) { sender in ... }
/// For a nonisolated type, built on whichever thread reads the property:
///   registry.register(MyApp.ResourceLoader.self, in: MyApp.SettingsViewController.self) { sender in ... }
/// ```
public struct ResolutionError: Error, CustomStringConvertible {
  /// The kinds of failure.
  ///
  /// New capabilities bring new kinds (``requiresLoad`` came with async initializers): a `switch`
  /// over a kind needs a `default` case.
  public enum Kind: Sendable, Hashable {
    /// No registration matched and the type is not ``DefaultInitializable``.
    case missingInitializer
    /// Building the value needs the value itself, directly or through other initializers.
    case dependencyCycle
    /// A `.weak` registration built a value that is not a class instance.
    case weakScopeRequiresClass
    /// An initializer threw an error of its own; see ``underlyingError``.
    case initializerFailed
    /// A main-actor initializer was asked for its value off the main actor.
    case requiresMainActor
    /// An object or classes have `@Lazy` or `@WeakLazy` properties that cannot be resolved, are
    /// always nil, or could not be checked; or a check could not take effect (an excluded class
    /// that is not the module's, a module with no such property); see
    /// ``InitializerRegistry/validate(_:)`` and
    /// ``InitializerRegistry/validate(classesIn:excluding:)``.
    case unresolvableProperties
    /// A property rule's key path leads to a property of another object than the one resolved,
    /// as `\UsersViewController.session.$token` does.
    case invalidPropertyKeyPath
    /// A forward's target resolved to a value that is not of the forwarded type; see
    /// ``InitializerRegistry/forward(_:to:fileID:line:)``.
    case forwardTargetMismatch
    /// A synchronous read, or ``InitializerRegistry/resolve(_:for:)``, met an async rule whose
    /// scope keeps no instance yet: ``InitializerRegistry/prepare()`` or
    /// ``LazyProjection/load()`` builds it (see <doc:AsyncInitializers>).
    case requiresLoad
  }

  /// What went wrong.
  public let kind: Kind

  /// The full, multi-line message.
  public let description: String

  /// The error an initializer threw, for ``Kind/initializerFailed``.
  public let underlyingError: (any Error)?

  /// For ``Kind/requiresLoad``: the async rule met, its registry, and the slot (its address) the
  /// resolution was for, 0 for none.
  ///
  /// `load()` awaits that rule instead.
  internal var pending: (registration: AnyRegistration, owner: InitializerRegistry, slot: UInt)?

  package init(_ kind: Kind, _ description: String, underlyingError: (any Error)? = nil) {
    (self.kind, self.description, self.underlyingError) = (kind, description, underlyingError)
  }

  /// The error for a rule whose key path leads to a property of another object than the one
  /// being resolved (see `PropertyTarget`).
  static func invalidPropertyKeyPath(
    rule: InitializerRegistry.Rule, containerClass: AnyClass, ownerClass: AnyClass
  ) -> ResolutionError {
    let root = rule.containerTypeName ?? "?"
    return ResolutionError(
      .invalidPropertyKeyPath,
      """
      LazyInject cannot use the rule \(rule): its key path, rooted at \(root), leads to a @Lazy \
      property of another object (a \(typeName(ownerClass))), not of the \
      \(typeName(containerClass)) whose property is being resolved.
      Fix: register the key path to a @Lazy property of \(root) itself, as \
      \\\(root).$auditLog; for a property of the other object, root the key path at its class.
      """)
  }
}

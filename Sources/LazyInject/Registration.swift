/// One registered initializer, its rule and the instance its scope keeps.
///
/// The mutable state is read and written only with the owning registry's lock held.
@usableFromInline
internal class AnyRegistration: @unchecked Sendable {
  let rule: InitializerRegistry.Rule
  let scope: InitializerRegistry.Scope

  /// The thread building the instance of a `.singleton` or `.weak` registration, if any.
  var builder: UnsafeRawPointer?

  /// The instance of a `.singleton` registration.
  var singleton: Any?

  /// The instance of a `.weak` registration.
  weak var weakInstance: AnyObject?

  init(rule: InitializerRegistry.Rule, scope: InitializerRegistry.Scope) {
    self.rule = rule
    self.scope = scope
  }
}

/// A registration for properties of type `Property`.
///
/// Its only field has the same size whatever `Property` is, so code that is generic over
/// `Property` reads it without looking up the class's generic metadata.
internal final class Registration<Property>: AnyRegistration, @unchecked Sendable {
  let make: @Sendable (AnyObject) throws -> Property

  init(
    rule: InitializerRegistry.Rule, scope: InitializerRegistry.Scope,
    make: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    self.make = make
    super.init(rule: rule, scope: scope)
  }
}

/// Where a `@Lazy` value came from; turned into a ``InitializerRegistry/Rule`` only on demand.
@usableFromInline
internal enum _LazyOrigin {
  case registration(AnyRegistration)
  case defaultInitializer(Any.Type)

  var rule: InitializerRegistry.Rule {
    switch self {
    case .registration(let registration): registration.rule
    case .defaultInitializer(let type): .defaultInitializer(of: type)
    }
  }
}

/// What a scope keeps of the instances its registrations build, how a resolution finds it, and
/// how a reset drops it: the one place that decides for each ``InitializerRegistry/Scope``.
///
/// A registration's kept instance, and an override layer's adopted one (see `AdoptedInstance`),
/// are read and written only with the lock of the registry that owns them held.
internal enum ScopePolicy: Equatable {
  /// `.unique`: nothing is kept; every resolution builds.
  case none
  /// `.singleton` and custom scopes: the instance, until a reset or until the registration goes.
  case strong
  /// `.weak`: a weak reference, while something else holds the instance.
  case weak

  init(_ scope: InitializerRegistry.Scope) {
    switch scope {
    case .unique: self = .none
    case .singleton, .custom: self = .strong
    case .weak: self = .weak
    }
  }

  /// The instance `registration` keeps, if any.
  func keptInstance(of registration: AnyRegistration) -> Any? {
    switch self {
    case .none: nil
    case .strong: registration.singleton
    case .weak: registration.weakInstance
    }
  }

  /// Keeps `value` in `registration`.
  ///
  /// A class-typed value kept strongly is also kept as an object, which a resolution returns
  /// with no cast (casting from `Any` took a sixth of a singleton's first read, measured) and the
  /// express plan names.
  func keep<Property>(_ value: Property, in registration: Registration<Property>) throws {
    switch self {
    case .none:
      break
    case .strong:
      registration.singleton = value
      registration.singletonObject =
        Lazy<Property>._storesObject ? unsafeBitCast(value, to: AnyObject.self) : nil
    case .weak:
      registration.weakInstance = try Self.weakObject(value, of: registration)
    }
  }

  /// Forgets the instance `registration` keeps, and returns it for release after unlocking (its
  /// deinit may resolve).
  ///
  /// The express table may name the object: the caller empties it before unlocking (see
  /// `InitializerRegistry.withStateChange(_:)`).
  func dropInstance(of registration: AnyRegistration) -> Any? {
    switch self {
    case .none:
      return nil
    case .strong:
      defer { (registration.singleton, registration.singletonObject) = (nil, nil) }
      return registration.singleton
    case .weak:
      registration.weakInstance = nil
      return nil
    }
  }

  /// How an override layer keeps `value`, an instance of another registry's `registration` that
  /// was built with the layer's rules.
  func adopted<Property>(_ value: Property, of registration: Registration<Property>) throws
    -> AdoptedInstance
  {
    switch self {
    case .weak:
      AdoptedInstance(
        registration: registration, object: try Self.weakObject(value, of: registration))
    case .none, .strong:
      AdoptedInstance(registration: registration, value: value)
    }
  }

  /// The instance an override layer adopted, if it is still alive.
  func instance(of adopted: AdoptedInstance) -> Any? {
    self == .weak ? adopted.object : adopted.value
  }

  /// The object a `.weak` registration keeps for `value`, looking through `Optional` and
  /// existentials; nil for a nil optional.
  private static func weakObject(_ value: Any, of registration: AnyRegistration) throws
    -> AnyObject?
  {
    guard let unwrapped = unwrappingOptionals(value) else { return nil }
    let dynamicType = type(of: unwrapped)
    guard dynamicType is AnyObject.Type else {
      throw ResolutionError.weakScopeRequiresClass(rule: registration.rule, valueType: dynamicType)
    }
    return unwrapped as AnyObject
  }
}

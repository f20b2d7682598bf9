/// Resolves an optional property type `T?` through the rules of `T` when no rule is registered
/// for `T?` itself; the value is nil when no rule applies to `T` either.
internal protocol _OptionalDependency {
  /// The wrapped type, for diagnostics and the `.weak` scope.
  static var wrappedType: Any.Type { get }

  /// The wrapped value, or nil; nil for `.none` itself.
  var wrappedValue: Any? { get }

  static func resolveWrapped(
    from registry: InitializerRegistry, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, outcome: inout InitializerRegistry.Outcome,
    trace: inout InitializerRegistry.Trace
  ) throws -> Self
}

extension Optional: _OptionalDependency {
  static var wrappedType: Any.Type { Wrapped.self }

  var wrappedValue: Any? { self.map { $0 } }

  static func resolveWrapped(
    from registry: InitializerRegistry, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, outcome: inout InitializerRegistry.Outcome,
    trace: inout InitializerRegistry.Trace
  ) throws -> Self {
    do {
      return try registry.value(
        of: Wrapped.self, for: container, frame: frame, outcome: &outcome, trace: &trace)
    } catch is InitializerRegistry.NoRule {
      return nil
    }
  }
}

/// `value` with every level of `Optional` around it removed; nil if one of them is `.none`.
internal func unwrappingOptionals(_ value: Any) -> Any? {
  var current = value
  while let optional = current as? any _OptionalDependency {
    guard let wrapped = optional.wrappedValue else { return nil }
    current = wrapped
  }
  return current
}

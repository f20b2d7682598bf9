import _LazyInjectShims

// Optionals and single references: what LazyInject asks of a property's type.

/// What LazyInject asks of `Optional`: a `T?` property that no rule of `T?` serves is served by
/// the rules of `T`, or is nil.
internal protocol _OptionalDependency {
  /// The wrapped type.
  static var wrappedType: Any.Type { get }

  /// The wrapped value, or nil; nil for `.none` itself.
  var wrappedValue: Any? { get }

  /// `.none`.
  static var none: Self { get }
}

extension Optional: _OptionalDependency {
  static var wrappedType: Any.Type { Wrapped.self }

  var wrappedValue: Any? { self.map { $0 } }
}

/// `value` with every level of `Optional` around it removed; nil if one of them is `.none`.
internal func unwrappingOptionals(_ value: Any) -> Any? {
  guard let optional = value as? any _OptionalDependency else { return value }
  return optional.wrappedValue.flatMap(unwrappingOptionals)
}

/// `T` for `T?`; nil for a type that is not optional.
package func wrappedType(of type: Any.Type) -> Any.Type? {
  // The cast of a type that does not conform searches every conformance record of the process.
  guard _lazyinject_is_optional(metadataAddress(of: type)) != 0 else {
    return nil
  }
  return (type as? any _OptionalDependency.Type)?.wrappedType
}

/// Whether values of `Value` are one object reference: a class type, with no witness table.
///
/// Such values can be stored in a `@Lazy` slot itself, and kept without a cast. Folds to a
/// constant where `Value` is known.
@inlinable @inline(__always) internal func isSingleReference<Value>(_: Value.Type) -> Bool {
  Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
}

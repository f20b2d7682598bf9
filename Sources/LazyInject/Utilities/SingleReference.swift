/// Whether values of `Value` are one object reference: a class type, with no witness table.
///
/// Such values can be stored in a `@Lazy` slot itself, and kept without a cast. Folds to a
/// constant where `Value` is known.
@inlinable @inline(__always) internal func isSingleReference<Value>(_: Value.Type) -> Bool {
  Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
}

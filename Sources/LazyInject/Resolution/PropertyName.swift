@_spi(Reflection) import Swift

/// The name of the `@Lazy` property whose storage is at `slot` in the object at `container`, as
/// declared (`"resourceLoader"`); nil if reflection cannot tell.
///
/// Found from the field's offset in the class's metadata, so no other property of the object is
/// read: other threads may be writing them.
internal func propertyName(
  at slot: UnsafeRawPointer, in container: UnsafeRawPointer, of containerClass: AnyClass
) -> String? {
  guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else { return nil }
  let offset = slot - container
  var name: String?
  // `.classType` (1 << 0; the static property is not concurrency-safe) lists the superclasses'
  // stored properties too.
  _forEachField(of: containerClass, options: _EachFieldOptions(rawValue: 1 << 0)) {
    field, fieldOffset, _, _ in
    guard fieldOffset == offset else { return true }
    let storageName = String(cString: field)
    // `@Lazy var loader` is stored as `_loader`.
    name = storageName.hasPrefix("_") ? String(storageName.dropFirst()) : storageName
    return false
  }
  return name
}

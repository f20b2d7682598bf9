/// The name of the `@Lazy` property whose storage is at `slot` in the object at `container`, as
/// declared (`"resourceLoader"`); nil if reflection cannot tell.
///
/// Found from the field's offset in the class's metadata, so no other property of the object is
/// read: other threads may be writing them.
internal func propertyName(
  at slot: UnsafeRawPointer, in container: UnsafeRawPointer, of containerClass: AnyClass
) -> String? {
  let offset = slot - container
  return StoredField.fields(of: containerClass)?.first { $0.offset == offset }?.name
}

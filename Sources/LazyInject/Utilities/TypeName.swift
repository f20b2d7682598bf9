import _LazyInjectShims

/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
package func typeName(_ type: Any.Type) -> String {
  let name = String(reflecting: type)
  let (marker, bytes) = (Array("(unknown context at $".utf8), Array(name.utf8))
  guard bytes.count >= marker.count else { return name }
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var index = 0
  while index < bytes.count {
    if bytes[index] == marker[0], bytes[index...].starts(with: marker),
      let close = bytes[index...].firstIndex(of: UInt8(ascii: ")"))
    {
      index = close + 1
      if index < bytes.count && bytes[index] == UInt8(ascii: ".") { index += 1 }
    } else {
      result.append(bytes[index])
      index += 1
    }
  }
  return String(decoding: result, as: UTF8.self)
}

/// How Swift code spells `type`: `any MyApp.Tracking` for a protocol's existential (which
/// `typeName` prints as `MyApp.Tracking`), `(any MyApp.Tracking)?` for an optional one
/// (`Swift.Optional<MyApp.Tracking>`), else its name.
package func codeName(_ type: Any.Type) -> String {
  if let optional = type as? any _OptionalDependency.Type {
    let wrapped = codeName(optional.wrappedType)
    return wrapped.hasPrefix("any ") ? "(\(wrapped))?" : "\(wrapped)?"
  }
  let category = _lazyinject_type_category(unsafeBitCast(type, to: UnsafeRawPointer.self))
  let needsAny =
    category == LAZYINJECT_CATEGORY_EXISTENTIAL && type != Any.self && type != AnyObject.self
  return needsAny ? "any \(typeName(type))" : typeName(type)
}

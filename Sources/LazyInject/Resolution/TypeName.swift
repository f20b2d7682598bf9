/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
internal func typeName(_ type: Any.Type) -> String {
  let name = String(reflecting: type)
  let marker = Array("(unknown context at $".utf8)
  let bytes = Array(name.utf8)
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

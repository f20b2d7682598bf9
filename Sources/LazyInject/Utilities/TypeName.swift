/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
///
/// `_typeName`, not `String(reflecting:)`, which asks whether the metatype conforms to three
/// protocols: a search of every conformance record of the process for each new type.
package func typeName(_ type: Any.Type) -> String {
  let name = _typeName(type, qualified: true)
  guard name.utf8.contains(UInt8(ascii: "(")) else {
    return name
  }
  var rest = Substring(name)
  var result = ""
  // Each "(" is kept, unless it opens an unknown context, which goes with the dot after it.
  while let open = rest.firstIndex(of: "(") {
    result += rest[..<open]
    rest = rest[rest.index(after: open)...]
    guard rest.hasPrefix("unknown context at $"), let close = rest.firstIndex(of: ")") else {
      result += "("
      continue
    }
    rest = rest[rest.index(after: close)...]
    if rest.first == "." {
      rest = rest.dropFirst()
    }
  }
  return result + rest
}

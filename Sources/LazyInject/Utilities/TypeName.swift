/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
package func typeName(_ type: Any.Type) -> String {
  var (rest, result) = (Substring(String(reflecting: type)), "")
  while let open = rest.firstIndex(of: "(") {
    result += rest[...open]
    rest = rest[open...].dropFirst()
    if rest.hasPrefix("unknown context at $"), let close = rest.firstIndex(of: ")") {
      result.removeLast()  // The "(".
      rest = rest[rest.index(after: close)...]
      if rest.first == "." { rest = rest.dropFirst() }
    }
  }
  return result + rest
}

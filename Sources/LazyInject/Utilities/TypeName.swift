/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
package func typeName(_ type: Any.Type) -> String {
  var rest = Substring(String(reflecting: type))
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

import _LazyInjectShims

/// The name users see for a type in messages: module-qualified, as in `MyApp.ResourceLoader`,
/// without the `(unknown context at $…)` that private and local types carry.
package func typeName(_ type: Any.Type) -> String {
  var (result, rest) = ("", Substring(String(reflecting: type)))
  let marker = "(unknown context at $"
  while let start = rest.indices.first(where: { rest[$0...].hasPrefix(marker) }) {
    result += rest[..<start]
    rest = rest[start...].drop { $0 != ")" }.dropFirst()
    rest = rest.first == "." ? rest.dropFirst() : rest
  }
  return result + rest
}

/// How Swift code spells `type`: `any MyApp.Tracking` for a protocol's existential (which
/// `typeName` prints as `MyApp.Tracking`), `(any MyApp.Tracking)?` for an optional one
/// (`Swift.Optional<MyApp.Tracking>`), else its name.
package func codeName(_ type: Any.Type) -> String {
  if let optional = type as? any _OptionalDependency.Type {
    let wrapped = codeName(optional.wrappedType)
    return wrapped.hasPrefix("any ") ? "(\(wrapped))?" : "\(wrapped)?"
  }
  let name = typeName(type)
  let isExistential =
    _lazyinject_type_category(unsafeBitCast(type, to: UnsafeRawPointer.self))
    == LAZYINJECT_CATEGORY_EXISTENTIAL
  guard isExistential, type != Any.self, type != AnyObject.self else { return name }
  return "any \(name)"
}

import _LazyInjectShims

extension InitializerRegistry {
  /// Rules for types close to `property` that a missing-registration message should mention: for
  /// `T`, a registration of `T?`; for `any P`, registrations of types that conform to `P`; in
  /// `registries` (a registry and the override layers in force over it).
  ///
  /// Only references are copied under each lock; conformances are checked after unlocking.
  package static func nearMisses(for property: Any.Type, in registries: [InitializerRegistry])
    -> [Rule]
  {
    // For `any P`, `any P.Type`; nil for another type. Every type conforms to `Any`, and every
    // class to `AnyObject`: no registration is near them.
    let isAnything = property == Any.self || property == AnyObject.self
    let metatype = isAnything ? nil : existentialMetatype(of: property)
    var near: [Rule] = []
    for registration in registries.flatMap(\.registrations) {
      let isOptionalOfProperty = wrappedType(of: registration.propertyType) == property
      let conforms = metatype.map { isValue(registration.propertyType, of: $0) } ?? false
      if isOptionalOfProperty || conforms {
        near.append(registration.rule)
      }
    }
    return near.sorted { $0.description < $1.description }
  }
}

/// Whether the metatype `type` is an instance of `metatype`, an existential metatype
/// `any P.Type`: whether `type` conforms to `P`.
package func isValue(_ type: Any.Type, of metatype: Any.Type) -> Bool {
  func check<Metatype>(_: Metatype.Type) -> Bool { (type as Any) is Metatype }
  return _openExistential(metatype, do: check)
}

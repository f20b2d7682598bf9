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
    // Every type conforms to `Any`, and every class to `AnyObject`: no registration is near.
    let metatype = (property == Any.self || property == AnyObject.self ? nil : property).flatMap {
      _lazyinject_existential_metatype(unsafeBitCast($0, to: UnsafeRawPointer.self))
    }.map { unsafeBitCast($0, to: Any.Type.self) }
    return registries.flatMap(\.registrations).filter { registration in
      wrappedType(of: registration.propertyType) == property
        || metatype.map { isValue(registration.propertyType, of: $0) } == true
    }.map(\.rule).sorted { $0.description < $1.description }
  }
}

/// Whether the metatype `type` is an instance of `metatype`, an existential metatype
/// `any P.Type`: whether `type` conforms to `P`.
package func isValue(_ type: Any.Type, of metatype: Any.Type) -> Bool {
  func check<Metatype>(_: Metatype.Type) -> Bool { (type as Any) is Metatype }
  return _openExistential(metatype, do: check)
}

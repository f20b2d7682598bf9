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
    registries.flatMap { $0.ownNearMisses(for: property) }
      .sorted { $0.description < $1.description }
  }

  private func ownNearMisses(for property: Any.Type) -> [Rule] {
    var types = [optionalType(wrapping: property)]
    // Every type conforms to `Any`, and every class to `AnyObject`: no registration is near.
    if property != Any.self, property != AnyObject.self,
      let metatype = _lazyinject_existential_metatype(
        unsafeBitCast(property, to: UnsafeRawPointer.self))
    {
      let existentialMetatype = unsafeBitCast(metatype, to: Any.Type.self)
      types += withState { $0.rules.propertyTypes }.filter { isValue($0, of: existentialMetatype) }
    }
    return withState { state in types.flatMap { state.rules.registrations(for: $0) } }.map(\.rule)
  }
}

/// `Optional<property>.self`.
private func optionalType(wrapping property: Any.Type) -> Any.Type {
  func wrap<Wrapped>(_: Wrapped.Type) -> Any.Type { Wrapped?.self }
  return _openExistential(property, do: wrap)
}

/// Whether the metatype `type` is an instance of `metatype`, an existential metatype
/// `any P.Type`: whether `type` conforms to `P`.
package func isValue(_ type: Any.Type, of metatype: Any.Type) -> Bool {
  func check<Metatype>(_: Metatype.Type) -> Bool { (type as Any) is Metatype }
  return _openExistential(metatype, do: check)
}

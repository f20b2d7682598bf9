extension InitializerRegistry {
  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let manager = try registry.resolve(RequestManager.self, for: UsersViewController())
  /// manager.request("/users")
  /// ```
  ///
  /// It uses the type's rules (no rule for one property: it names no property) and the override
  /// layers in force where it is called, whatever layers `container` was made under; the
  /// initializer's own resolutions see the same. The registry never retains `container`.
  ///
  /// - Throws: ``ResolutionError`` if no rule applies, if the initializers form a cycle, or if an
  ///   initializer throws.
  public func resolve<Property, Container: AnyObject>(
    _ propertyType: Property.Type, for container: Container
  ) throws -> Property {
    var outcome = Outcome()
    let storesObject = isSingleReference(Property.self)
    let plan = expressPlan(for: propertyType, in: container, storesObject: storesObject).servingHere
    return try Self.resolve(
      propertyType, for: container, slot: nil, plan: plan, generally: self, outcome: &outcome)
  }
}

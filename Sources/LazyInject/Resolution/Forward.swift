import _LazyInjectShims

extension InitializerRegistry {
  /// Resolves `forwardedType` by resolving `targetType` for the same sender: one instance under
  /// several types, such as a singleton shared through each of its protocols.
  ///
  /// ```swift
  /// registry.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
  /// registry.forward((any Tracking).self, to: SharedAnalytics.self)
  /// registry.forward((any Reporting).self, to: SharedAnalytics.self)
  /// // Every `@Lazy var tracker: any Tracking` and `any Reporting` gets the one SharedAnalytics.
  /// ```
  ///
  /// A forward is a root default for `forwardedType`: it follows the same rule order and
  /// inheritance as a registration, and lives in the innermost override layer when registered
  /// inside one. Resolving it resolves `targetType` with the target's own rules and scope (and
  /// the override layers in force: a test's mock of the target is forwarded too), then casts.
  ///
  /// A target whose value is not a `forwardedType` fails when the forwarded type is resolved,
  /// with a ``ResolutionError`` of kind ``ResolutionError/Kind/forwardTargetMismatch`` naming
  /// both types. When the types alone show it can never be one (a struct that does not conform),
  /// or that the forward would resolve itself (a type forwarded to itself), registering also
  /// writes a warning to standard error.
  ///
  /// - Parameters:
  ///   - forwardedType: The type properties declare, such as `(any Tracking).self`.
  ///   - targetType: The type whose rules build the value, such as `SharedAnalytics.self`.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  public func forward<Forwarded, Target>(
    _ forwardedType: Forwarded.Type, to targetType: Target.Type, fileID: StaticString = #fileID,
    line: UInt = #line
  ) { addForward(forwardedType, in: nil, to: targetType, fileID: fileID, line: line) }

  /// Resolves `forwardedType` in containers of class `containerType` and its subclasses by
  /// resolving `targetType` for the same sender.
  ///
  /// ```swift
  /// registry.forward((any Reporting).self, in: SettingsViewController.self, to: SharedAnalytics.self)
  /// ```
  ///
  /// See ``forward(_:to:fileID:line:)`` for the rules.
  ///
  /// - Parameters:
  ///   - forwardedType: The type properties declare.
  ///   - containerType: The class whose objects (and subclasses' objects) use this forward.
  ///   - targetType: The type whose rules build the value.
  ///   - fileID: The registration site, shown in diagnostics.
  ///   - line: The registration site, shown in diagnostics.
  public func forward<Forwarded, Container: AnyObject, Target>(
    _ forwardedType: Forwarded.Type, in containerType: Container.Type, to targetType: Target.Type,
    fileID: StaticString = #fileID, line: UInt = #line
  ) { addForward(forwardedType, in: containerType, to: targetType, fileID: fileID, line: line) }

  private func addForward<Forwarded, Target>(
    _ forwardedType: Forwarded.Type, in container: AnyClass?, to targetType: Target.Type,
    fileID: StaticString, line: UInt
  ) {
    let (forwarded, target) = (typeName(forwardedType), typeName(targetType))
    let never =
      forwardedType == targetType
      ? "it resolves \(target) through itself, a cycle. Register \(target) instead"
      : neverConforms(targetType, to: forwardedType)
        ? "a \(target) is never a \(forwarded). Make it conform, or forward to a type that does"
        : nil
    if let never {
      writeToStandardError(
        "LazyInject warning: forward((\(codeName(forwardedType))).self, to: \(codeName(targetType)).self)"
          + " at \(fileID):\(line) can never succeed: \(never).\n")
    }
    // Unowned: the registry keeps the registration, which keeps this closure, and the registry
    // (or the layer's, which keeps it) outlives every resolution that builds with it.
    add(
      forwardedType, container: container, forwardTarget: targetType, scope: .unique,
      fileID: fileID, line: line,
      make: { [unowned base = baseRegistry] sender in
        // From the registry with the layers in force, so that a mock of the target is forwarded.
        var outcome = Outcome()
        let value: Any
        do {
          value = try Self.resolve(
            targetType, for: sender, slot: nil, plan: .general, generally: base, outcome: &outcome)
        } catch var error as ResolutionError {
          // The target's own rule is async: a `load()` of the forwarded property awaits it.
          if case (let rule, let owner, 0)? = error.pending, rule.propertyType == targetType {
            error.pending = (rule, owner, UInt(bitPattern: ResolutionFrame.current?.pointee.slot))
          }
          throw error
        }
        guard let forwarded = value as? Forwarded else {
          throw ResolutionError.forwardTargetMismatch(
            forwarded: forwardedType, target: targetType, value: value,
            site: "\(fileID):\(line)", chain: ResolutionFrame.chain)
        }
        return forwarded
      })
  }
}

/// Whether no value that the rules of `target` can build is a `forwarded`, as far as the types
/// alone tell: only then is a forward worth a warning when it is registered.
///
/// A class's subclass, or an existential's dynamic type, may conform where the type does not,
/// and values bridge across kinds on Darwin, so only targets of the forwarded type's own kind are
/// judged; a conformance isolated to the main actor is seen only there, so a protocol is checked
/// only on the main actor.
private func neverConforms(_ target: Any.Type, to forwarded: Any.Type) -> Bool {
  let targetCategory = _lazyinject_type_category(unsafeBitCast(target, to: UnsafeRawPointer.self))
  let forwardedMetadata = unsafeBitCast(forwarded, to: UnsafeRawPointer.self)
  switch _lazyinject_type_category(forwardedMetadata) {
  case LAZYINJECT_CATEGORY_EXISTENTIAL:
    guard targetCategory == LAZYINJECT_CATEGORY_VALUE, isOnMainActor(),
      let metatype = _lazyinject_existential_metatype(forwardedMetadata)
    else { return false }
    return !isValue(target, of: unsafeBitCast(metatype, to: Any.Type.self))
  case LAZYINJECT_CATEGORY_CLASS:
    // Neither is the other or a subclass of it.
    let isSubclass = { (subclass: Any.Type, base: Any.Type) in
      ancestry(of: unsafeBitCast(subclass, to: AnyClass.self)).contains { $0 == base }
    }
    return targetCategory == LAZYINJECT_CATEGORY_CLASS
      && !isSubclass(target, forwarded) && !isSubclass(forwarded, target)
  case LAZYINJECT_CATEGORY_VALUE:
    // A class may bridge to a struct (NSString to String), an optional unwrap to its value.
    return targetCategory == LAZYINJECT_CATEGORY_VALUE && target != forwarded
  default: return false
  }
}

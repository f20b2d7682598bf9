@_spi(Reflection) import Swift
import _LazyInjectScan
import _LazyInjectShims

// What LazyInject reads of the Swift runtime's layout, in one audited place (with RawMemory.swift,
// the only code whose soundness rests on layouts the compiler does not check): the stored
// properties of classes, superclasses, metadata addresses, existential metatypes, conformances
// from the binary's records, and the representation of main-actor functions. ARCHITECTURE.md's "Sites that read the Swift runtime's
// layout" gives what each follows and how it fails closed.

/// A stored `@Lazy` or `@WeakLazy` property of a class, found by reflection of its class's
/// metadata: nothing of an object is read to find it.
package struct LazyField {
  /// The name as declared, as in `"auditLog"` (without the underscore of its storage, `_auditLog`);
  /// nil where the module was built without reflection names.
  package let name: String?
  /// The offset of the property's slot in an object of the class.
  package let offset: Int
  /// `Lazy<Value>` or `WeakLazy<Value>`.
  package let storageType: Any.Type
  /// The type the property resolves: `Value` for `@Lazy`, `Value?` for `@WeakLazy`.
  package let valueType: Any.Type
  /// Whether it is a `@WeakLazy` property.
  package let isWeak: Bool
  /// The class that declares it: the class itself or a superclass.
  package let declaringClass: AnyClass

  /// Why the stored properties of a class cannot be listed.
  package enum Unreadable: Error {
    /// This OS has no field reflection (before iOS 13.4, macOS 10.15.4, tvOS 13.4, watchOS 6.2).
    case unavailableOnThisOS
    /// The class, or a superclass, was built without reflection metadata.
    case missingMetadata(AnyClass)
    /// The class is an Objective-C class (such as one declared `@objc @implementation`), whose
    /// properties Swift reflection does not list.
    case objectiveCClass(AnyClass)
  }

  /// What is written for a property whose name reflection cannot tell.
  package static let unnamed =
    "(a property whose name is missing: its module was built without reflection names,"
    + " SWIFT_REFLECTION_METADATA_LEVEL = without-names)"

  /// The name, or a phrase that says why it is missing.
  package var displayName: String { name ?? Self.unnamed }

  /// The value the property holds in `container`, if resolved; nil for `@WeakLazy`, which keeps
  /// nothing alive.
  package func value(in container: AnyObject) -> Any? {
    (storageType as? any _LazyStorage.Type)?.value(in: container, at: offset)
  }

  /// The `@Lazy` and `@WeakLazy` properties of `containerClass` and its superclasses,
  /// superclasses' first, in declaration order.
  ///
  /// - Throws: Why they cannot be listed: where reflection metadata was left out, the standard
  ///   library would list none, as for a class with no stored property.
  package static func fields(of containerClass: AnyClass) throws(Unreadable) -> [LazyField] {
    if let known = cache.withLock({ $0[ObjectIdentifier(containerClass)] }) { return known }
    guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else {
      throw .unavailableOnThisOS
    }
    var fields: [LazyField] = []
    var inherited = 0  // How many stored properties the superclasses declare.
    for declaringClass in ancestry(of: containerClass).reversed() {
      let metadata = metadataAddress(of: declaringClass)
      // An Objective-C ancestor of a Swift class declares no Swift field; the class itself must
      // be a Swift one.
      guard _lazyinject_is_swift_class(metadata) != 0 else {
        if declaringClass == containerClass { throw .objectiveCClass(declaringClass) }
        continue
      }
      guard _lazyinject_has_field_records(metadata) != 0 else {
        throw .missingMetadata(declaringClass)
      }
      var index = 0
      // `.classType` (1 << 0; the static property is not concurrency-safe) lists the
      // superclasses' stored properties too, first.
      let options = _EachFieldOptions(rawValue: 1 << 0)
      let isListed = _forEachField(of: declaringClass, options: options) { field, offset, type, _ in
        defer { index += 1 }
        guard index >= inherited, let storage = StorageType(type) else { return true }
        let stored = String(cString: field)
        let name = stored.hasPrefix("_") ? String(stored.dropFirst()) : stored
        fields.append(
          LazyField(
            name: name.isEmpty ? nil : name, offset: offset, storageType: type,
            valueType: storage.valueType, isWeak: storage.isWeak, declaringClass: declaringClass))
        return true
      }
      guard isListed else { throw .missingMetadata(declaringClass) }
      inherited = index
    }
    cache.withLock { $0[ObjectIdentifier(containerClass)] = fields }
    return fields
  }

  /// The name of the property at `offset` in objects of `containerClass`, or a phrase that says
  /// why it is unknown.
  package static func name(at offset: Int, in containerClass: AnyClass) -> String {
    let field = try? fields(of: containerClass).first { $0.offset == offset }
    return field?.displayName ?? "(a property whose name is missing: no reflection metadata)"
  }

  /// The fields of each class asked, which never change: classes are never unloaded.
  private static let cache = Protected<[ObjectIdentifier: [LazyField]]>([:])
}

/// What reflection reads of a `@Lazy` or `@WeakLazy` property's storage type.
internal protocol _LazyStorage {
  /// What the property at `offset` in `container` holds, read under its slot lock.
  static func value(in container: AnyObject, at offset: Int) -> Any?
}

/// `WeakLazy`'s mark, which tells it from `Lazy` in the conformance records.
internal protocol _WeakLazyStorage {}

/// What the type of a stored property says of a `@Lazy` or `@WeakLazy` property.
private struct StorageType {
  /// The type the property resolves: `Value` for `Lazy<Value>`, `Value?` for `WeakLazy<Value>`.
  let valueType: Any.Type
  let isWeak: Bool

  /// Nil for a type that is neither `Lazy<Value>` nor `WeakLazy<Value>`.
  ///
  /// Read from the conformance records and the type's generic argument, with no cast: the Swift
  /// runtime answers a first cast of each type by searching every record of the process, and a
  /// module's classes have hundreds of property types.
  init?(_ type: Any.Type) {
    guard conforms(type, to: (any _LazyStorage).self, orAsk: { type is any _LazyStorage.Type })
    else { return nil }
    isWeak = conforms(type, to: (any _WeakLazyStorage).self) {
      type is any _WeakLazyStorage.Type
    }
    let argument = _lazyinject_first_generic_argument(metadataAddress(of: type))
    let value = unsafeBitCast(argument, to: Any.Type.self)
    func optional<Wrapped>(_: Wrapped.Type) -> Any.Type { Wrapped?.self }
    valueType = isWeak ? _openExistential(value, do: optional) : value
  }
}

/// Whether `type` conforms to the protocol of `existential` (`(any P).self`).
///
/// By the binary's conformance records where they can say (`_lazyinject_conforms`), else by
/// `ask`, which asks the Swift runtime. The runtime answers a type that does not conform by
/// searching every record of the process, once per type; a launch asks of hundreds of new types.
internal func conforms(_ type: Any.Type, to existential: Any.Type, orAsk ask: () -> Bool) -> Bool {
  switch _lazyinject_conforms(metadataAddress(of: type), metadataAddress(of: existential)) {
  case 0:
    return false
  case 1:
    return true
  default:
    return ask()
  }
}

/// `containerClass` and its superclasses, nearest first: the order rules are searched in.
package func ancestry(of containerClass: AnyClass) -> [AnyClass] {
  Array(ancestrySequence(of: containerClass))
}

/// `ancestry(of:)` walked without an array: a plan walks it for each new pair, most often no
/// further than the container class.
internal func ancestrySequence(of containerClass: AnyClass) -> UnfoldFirstSequence<AnyClass> {
  sequence(first: containerClass, next: _getSuperclass)
}

/// The existential metatype of one protocol (`any P.Type`) made of a type's metadata and the
/// witness table of its conformance, which the conformance records give: its layout is the
/// type's metadata, then one witness table per protocol (`TargetExistentialMetatypeContainer`).
internal func existentialMetatype<Metatype>(
  metadata: UnsafeRawPointer, witnessTable: UnsafeRawPointer, as metatype: Metatype.Type
) -> Metatype {
  unsafeBitCast((metadata, witnessTable), to: metatype)
}

/// The address of `type`'s metadata: what the fast path's table is keyed by, and what the shims
/// read a type's kind and flags from (`LazyInjectShims.h`).
@inlinable @inline(__always) internal func metadataAddress(of type: Any.Type) -> UnsafeRawPointer {
  unsafeBitCast(type, to: UnsafeRawPointer.self)
}

/// For `(any P).self`, the existential metatype `any P.Type`; nil for any other type.
internal func existentialMetatype(of type: Any.Type) -> Any.Type? {
  guard let metatype = _lazyinject_existential_metatype(metadataAddress(of: type)) else {
    return nil
  }
  return unsafeBitCast(metatype, to: Any.Type.self)
}

/// The main-actor `function` as one callable from anywhere, for callers that checked
/// `isOnMainActor()` first.
///
/// A synchronous `@MainActor` function has the representation of a nonisolated one (pointer
/// authentication ignores isolation: `GenPointerAuth.cpp`); calling it on the main thread is what
/// `MainActor.assumeIsolated` does too. That function would do, but it requires a `Sendable`
/// result, which the values of main-actor initializers often are not (a test's spy), and it
/// traps in a main-queue job that a worker thread drains (Linux).
internal func onMainActorAnywhere<Argument, Result>(
  _ function: @escaping @MainActor (Argument) throws -> Result
) -> @Sendable (Argument) throws -> Result {
  unsafeBitCast(function, to: (@Sendable (Argument) throws -> Result).self)
}

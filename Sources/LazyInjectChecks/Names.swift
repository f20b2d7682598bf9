import LazyInject
import _LazyInjectScan

// How the checks name what the runtime knows: types as code spells them, layers, the fix for a
// near miss, and why a class's properties cannot be listed.

/// How Swift code spells `type`: `any MyApp.Tracking` for a protocol's existential (which
/// `typeName` prints as `MyApp.Tracking`), `(any MyApp.Tracking)?` for an optional one
/// (`Swift.Optional<MyApp.Tracking>`), else its name.
package func codeName(_ type: Any.Type) -> String {
  if let wrapped = wrappedType(of: type).map(codeName) {
    return wrapped.hasPrefix("any ") ? "(\(wrapped))?" : "\(wrapped)?"
  }
  let category = _lazyinject_type_category(unsafeBitCast(type, to: UnsafeRawPointer.self))
  let needsAny =
    category == LAZYINJECT_CATEGORY_EXISTENTIAL && type != Any.self && type != AnyObject.self
  return needsAny ? "any \(typeName(type))" : typeName(type)
}

extension InitializerRegistry {
  /// The fix for a near miss of `property`: `"Register any MyApp.Tracking, or forward it:
  /// forward((any MyApp.Tracking).self, to: ...)"`.
  static func nearMissFix(for property: Any.Type) -> String {
    let name = codeName(property)
    return "Register \(name), or forward it: forward((\(name)).self, to: ...)"
  }

  /// `"Registry"`, `"Override layer 2"`, or `"Override layer 2, registered while in force"`.
  var layerTitle: String {
    guard overrideDepth > 0 else { return "Registry" }
    return "Override layer \(overrideDepth)" + (isInForce ? ", registered while in force" : "")
  }
}

extension LazyField.Unreadable {
  /// Why, and the fix, for a message about `subject`.
  func message(_ subject: String) -> String {
    let reason =
      switch self {
      case .unavailableOnThisOS:
        "This OS has no field reflection (it came with iOS 13.4, macOS 10.15.4, tvOS 13.4 and"
          + " watchOS 6.2). Fix: run the check on a newer OS, or a simulator of one."
      case .missingMetadata(let owner):
        "The reflection metadata of \(typeName(owner)) is missing. Fix: build the module that"
          + " declares it with reflection metadata (the default; not with"
          + " -disable-reflection-metadata or SWIFT_REFLECTION_METADATA_LEVEL = none)."
      case .objectiveCClass(let owner):
        "\(typeName(owner)) is an Objective-C class (or @objc @implementation), whose"
          + " properties Swift reflection does not list. Fix: check a Swift subclass instead."
      }
    return "LazyInject cannot list the stored properties of \(subject), so none was checked.\n"
      + reason
  }
}

/// One registered initializer, its rule and the instance its scope keeps.
///
/// The mutable state is read and written only with the owning registry's lock held.
@usableFromInline
internal class AnyRegistration: @unchecked Sendable {
  let propertyType: Any.Type
  let containerType: AnyClass?
  let scope: InitializerRegistry.Scope
  let fileID: StaticString
  let line: UInt
  let overrideDepth: Int
  /// Whether the initializer runs on the main actor.
  let isMainActor: Bool
  /// The module that made the registration, with its condition, if any.
  let moduleName: String?

  /// The thread building the instance of a shared (not `.unique`) registration, if any.
  var builder: UnsafeRawPointer?

  /// The generation of the scope (see `InitializerRegistry.reset(_:)`) when `builder` started.
  var builtInGeneration = 0

  /// The instance of a `.singleton` or custom-scope registration.
  var singleton: Any?

  /// The instance of a `.weak` registration.
  weak var weakInstance: AnyObject?

  init(
    propertyType: Any.Type, containerType: AnyClass?, scope: InitializerRegistry.Scope,
    fileID: StaticString, line: UInt, overrideDepth: Int, isMainActor: Bool, moduleName: String?
  ) {
    self.isMainActor = isMainActor
    self.moduleName = moduleName
    self.propertyType = propertyType
    self.containerType = containerType
    self.scope = scope
    self.fileID = fileID
    self.line = line
    self.overrideDepth = overrideDepth
  }

  /// The rule, for diagnostics.
  ///
  /// Built on demand: type names cost more than the rest of a registration (30 µs for long
  /// generic names, measured), and only diagnostics read them.
  var rule: InitializerRegistry.Rule {
    InitializerRegistry.Rule(
      propertyTypeName: typeName(propertyType), containerTypeName: containerType.map(typeName),
      scope: scope, fileID: "\(fileID)", line: Int(line), overrideDepth: overrideDepth,
      isMainActor: isMainActor, moduleName: moduleName)
  }
}

/// A registration for properties of type `Property`.
///
/// Its only field has the same size whatever `Property` is, so code that is generic over
/// `Property` reads it without looking up the class's generic metadata.
internal final class Registration<Property>: AnyRegistration, @unchecked Sendable {
  let make: @Sendable (AnyObject) throws -> Property

  init(
    containerType: AnyClass?, scope: InitializerRegistry.Scope, fileID: StaticString, line: UInt,
    overrideDepth: Int, isMainActor: Bool, moduleName: String?,
    make: @escaping @Sendable (AnyObject) throws -> Property
  ) {
    self.make = make
    super.init(
      propertyType: Property.self, containerType: containerType, scope: scope, fileID: fileID,
      line: line, overrideDepth: overrideDepth, isMainActor: isMainActor, moduleName: moduleName)
  }
}

/// Where a `@Lazy` value came from; turned into a ``InitializerRegistry/Rule`` only on demand.
@usableFromInline
internal enum _LazyOrigin {
  case registration(AnyRegistration)
  case defaultInitializer(Any.Type)

  var rule: InitializerRegistry.Rule {
    switch self {
    case .registration(let registration): registration.rule
    case .defaultInitializer(let type): .defaultInitializer(of: type)
    }
  }
}

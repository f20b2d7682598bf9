// Requirements: the types a package declares that the program must provide to its classes, which
// the whole-app checks read (`LazyInjectChecks`).

extension InitializerRegistry {
  /// Declares that the program provides `propertyType` to the classes of the calling Swift
  /// module: a type the package reads but only the app can build.
  ///
  /// ```swift
  /// public struct FeedInitializers: LinkedModule {
  ///   public init() {}
  ///   public func register(in registry: InitializerRegistry) {
  ///     registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  ///     registry.require((any Tracking).self)  // The app registers its analytics.
  ///   }
  /// }
  /// ```
  ///
  /// A requirement registers nothing. It tells the whole-app checks (`validate(classesIn:)` of
  /// `LazyInjectChecks`) who provides the type:
  /// - the check of the declaring module (a package's own tests) passes its properties of the
  ///   type that no rule serves, and lists them in the report's `requiredProperties`;
  /// - the check of any other module (the app's tests) also checks, for each class of the
  ///   declaring module that reads the type, that a rule or `init()` serves it, and fails naming
  ///   the package, the requirement and those classes.
  ///
  /// ``description`` lists the requirements. Declaring one twice for the same module keeps one.
  /// It is kept by this registry itself, even inside an override layer.
  ///
  /// - Parameters:
  ///   - propertyType: The type of the `@Lazy` properties that the program provides, such as
  ///     `(any AnalyticsClient).self`.
  ///   - fileID: The declaring site: its module is the module whose classes need the type.
  ///   - line: The declaring site, shown in diagnostics.
  public func require<Property>(
    _ propertyType: Property.Type, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let requirement = Requirement(
      propertyType: propertyType, module: moduleName(of: fileID), declaredBy: Self.installing?.name,
      site: "\(fileID):\(line)")
    withState { state in
      let isKnown = state.requirements.contains {
        $0.propertyType == propertyType && $0.module == requirement.module
      }
      if !isKnown {
        state.requirements.append(requirement)
      }
    }
  }

  /// A type that a module declared the program must provide to its classes (`require(_:)`).
  package struct Requirement: Sendable {
    /// The type its classes read.
    package let propertyType: Any.Type
    /// The Swift module whose classes read it.
    package let module: String
    /// The module (an `InitializerModule`) that declared it, if one was being installed.
    package let declaredBy: String?
    /// Where it was declared, as `Feed/FeedInitializers.swift:9`.
    package let site: String

    /// Its line in `description` and in the checks' messages, as
    /// `Feed requires Core.AnalyticsClient (module Feed.FeedInitializers,
    /// Feed/FeedInitializers.swift:9)`.
    package var description: String {
      let module = declaredBy.map { "module \($0), " } ?? ""
      return "\(self.module) requires \(typeName(propertyType)) (\(module)\(site))"
    }
  }

  /// The requirements declared on this registry, in the order declared.
  package var requirements: [Requirement] { withState { $0.requirements } }
}

/// The module of a `#fileID`, as `Feed` for `Feed/FeedInitializers.swift`.
private func moduleName(of fileID: StaticString) -> String {
  String(describing: fileID).split(separator: "/").first.map(String.init) ?? ""
}

extension InitializerRegistry {
  /// Checks, without building anything, that every unresolved `@Lazy` and every `@WeakLazy`
  /// property of `container` can be resolved now.
  ///
  /// A one-line test per screen catches a missing registration before users do:
  ///
  /// ```swift
  /// @Test @MainActor func usersScreenCanResolveEverything() throws {
  ///   try InitializerRegistry.shared.validate(UsersViewController())
  /// }
  /// ```
  ///
  /// `@Lazy` properties that already hold a value are skipped (a `@WeakLazy` value may go away,
  /// so those are always checked). Override layers active on the calling task
  /// count, and so do rules for one property (registered with a key path), which validating
  /// applies to the object, so that diagnostics name their properties from then on. Only the
  /// properties themselves are checked, not the values their initializers need. To check
  /// classes without making an object, use ``validate(classes:)`` or
  /// ``validate(classesIn:excluding:)``.
  ///
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing every property that cannot be resolved (no rule, a forward to a type with no
  ///   rule, a property rule whose key path leads to another object), with the search for each,
  ///   and every optional property that is always nil while a related type is registered; the
  ///   same kind when the class's stored properties cannot be listed because its reflection
  ///   metadata was left out.
  public func validate(_ container: AnyObject) throws {
    let containerClass: AnyClass = type(of: container)
    guard let fields = LazyField.fields(of: containerClass) else {
      throw ResolutionError(
        .unresolvableProperties,
        "LazyInject cannot list the stored properties of \(typeName(containerClass)), so no"
          + " property of it was checked.\n" + Self.reflectionFix)
    }
    let problems = fields.filter { !$0.isResolved(in: container) }
      .map { check($0, in: containerClass, container: container) }
      .filter(\.outcome.isProblem)
    guard !problems.isEmpty else { return }
    let (summary, breakdown) = Self.title(of: problems)
    throw unresolvable(
      "LazyInject \(summary) of \(typeName(containerClass))"
        + (breakdown.map { " (\($0))" } ?? "") + ":", problems)
  }

  /// Checks, without making any object, that every `@Lazy` and `@WeakLazy` property of each of
  /// `classes` (inherited ones included) can be resolved now.
  ///
  /// ```swift
  /// try registry.validate(classes: [UsersViewController.self, ProjectsViewController.self])
  /// ```
  ///
  /// Nothing is constructed: the properties are read from each class's metadata, so this works
  /// for view controllers that need a coder or a storyboard. The override layers in force on the
  /// calling task count, as they do for a resolution. An optional (or `@WeakLazy`) property that
  /// no rule serves is nil by design and passes, unless a related type is registered (a concrete
  /// type that conforms to its protocol), which is reported. A forward counts when its target
  /// resolves. A rule for one property counts when LazyInject can tell its property without an
  /// object: once it has served a read or ``validate(_:)``, or when its class has one `@Lazy`
  /// property of the type; otherwise the thrown error says so, where the property would have no
  /// other rule.
  ///
  /// It cannot see rules that are registered later at run time, nor the values an initializer
  /// builds or resolves inside it: only the properties themselves.
  ///
  /// - Returns: What was checked.
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing each property that has no rule, or whose forward's target has none (its class,
  ///   the class that declares it, and the classes searched), each optional property that is
  ///   always nil while a related type is registered, each property that only rules for one
  ///   property could serve while which one each names cannot be told without an object, and
  ///   each class whose stored properties cannot be read because its reflection metadata was
  ///   left out of the build.
  @discardableResult
  public func validate(classes: [AnyClass]) throws -> ValidationReport {
    try validate(classes, in: nil)
  }

  /// Checks, without making any object, every class of the module named `moduleName`, as
  /// ``validate(classes:)`` does, except those in `excluded`.
  ///
  /// One test checks a whole app:
  ///
  /// ```swift
  /// @Test func everyScreenCanResolveItsDependencies() throws {
  ///   let report = try InitializerRegistry.shared.validate(
  ///     classesIn: "MyApp", excluding: [ViewController.self])
  ///   // Generic classes are not checked: expect the ones you know, validate their
  ///   // specializations with validate(classes:).
  ///   #expect(report.skippedGenericClasses.isEmpty, "\(report)")
  /// }
  /// ```
  ///
  /// The module's classes are found in the type records the compiler emits for every type:
  /// screens, view models, and the services whose own `@Lazy` properties their dependencies
  /// need. Call it once the app's registrations are made (an app's automatic modules are, for
  /// ``shared``). A generic class (or a class nested in a generic type) has no metadata to read
  /// until it is specialized, so it is not checked: the returned report lists it in
  /// ``ValidationReport/skippedGenericClasses`` and its description names it, and a test that
  /// expects that list notices a new one; pass the specializations the app uses to
  /// ``validate(classes:)``. `excluded` names classes of the module to leave out (an abstract
  /// base class whose subclasses are checked with its properties), not their subclasses.
  ///
  /// Finding the classes reads the records of every image loaded in the process, and getting a
  /// class's metadata runs its metadata accessor, which for a class that inherits from an
  /// Objective-C class may run its `+initialize`. The scan is tested on Linux; Darwin keeps the
  /// same records, in each image's `__swift5_types` sections, and CI cannot run it there.
  /// ``validate(classes:)`` needs no scan.
  ///
  /// - Parameters:
  ///   - moduleName: The module's name, as in `import MyApp` (a target's name with spaces and
  ///     dashes replaced by underscores).
  ///   - excluded: Classes not to check.
  /// - Returns: What was checked, and the generic classes skipped.
  /// - Throws: The error of ``validate(classes:)``, which also names the module's classes whose
  ///   metadata the scan could not get; the same kind of error, checking nothing, when no class
  ///   of the process belongs to a module of that name (listing the modules that have classes),
  ///   when the platform keeps no type records LazyInject can read, or when `excluded` names a
  ///   class that is not one of the module's non-generic classes; and when the module's classes
  ///   have no `@Lazy` or `@WeakLazy` property at all, so that nothing was checked.
  @discardableResult
  public func validate(classesIn moduleName: String, excluding excluded: [AnyClass] = [])
    throws -> ValidationReport
  {
    let scan = try Self.scan(moduleName)
    let scanned = Set(scan.classes.map(ObjectIdentifier.init))
    let strangers = excluded.filter { !scanned.contains(ObjectIdentifier($0)) }
    guard strangers.isEmpty else {
      throw ResolutionError(
        .unresolvableProperties,
        "LazyInject cannot exclude " + strangers.map(typeName).joined(separator: ", ")
          + ": not a non-generic class of the module \(moduleName), so excluding it has no"
          + " effect; nothing was checked.\nFix: remove it from excluding:, or validate the"
          + " module that declares it (a generic class's specializations are never scanned).")
    }
    let excludedClasses = Set(excluded.map(ObjectIdentifier.init))
    return try validate(
      scan.classes.filter { !excludedClasses.contains(ObjectIdentifier($0)) },
      in: (scan, moduleName))
  }

  /// The classes of the module named `moduleName`.
  ///
  /// - Throws: When there is none, or the platform keeps no type records.
  internal static func scan(_ moduleName: String) throws -> ModuleScan {
    let scan = ModuleScan(module: moduleName)
    guard scan.isSupported else {
      throw ResolutionError(
        .unresolvableProperties,
        "LazyInject cannot list the classes of \(moduleName): this platform keeps no type records"
          + " it can read, so nothing was checked.\nFix: name the classes with"
          + " validate(classes:).")
    }
    guard scan.classes.isEmpty && scan.genericClasses.isEmpty else { return scan }
    let modules = ModuleScan.moduleNames
    throw ResolutionError(
      .unresolvableProperties,
      "LazyInject found no class in a module named \"\(moduleName)\", so nothing was checked.\n"
        + "Modules with classes in this process: \(modules.joined(separator: ", ")).\n"
        + "Fix: name the module as `import` does (a target's name, with spaces and dashes"
        + " replaced by underscores), one whose code is linked into this process.")
  }

  /// Checks `classes`: named by the caller, or with `scan`, the classes the scan of `module`
  /// found, less those excluded.
  private func validate(_ classes: [AnyClass], in scan: (ModuleScan, module: String)?) throws
    -> ValidationReport
  {
    var problems: [PropertyCheck] = []
    var unreadable: [AnyClass] = []
    var propertyCount = 0
    for containerClass in classes {
      guard let fields = LazyField.fields(of: containerClass) else {
        unreadable.append(containerClass)
        continue
      }
      propertyCount += fields.count
      problems += fields.map { check($0, in: containerClass, container: nil) }
        .filter(\.outcome.isProblem)
    }
    let withoutMetadata = scan?.0.classesWithoutMetadata ?? []
    let report = ValidationReport(
      checkedClasses: classes.map(typeName), checkedPropertyCount: propertyCount,
      skippedGenericClasses: scan?.0.genericClasses ?? [])
    var messages: [String] = []
    if !problems.isEmpty {
      let failing = Set(problems.map { ObjectIdentifier($0.containerClass) }).count
      let (summary, breakdown) = Self.title(of: problems)
      let detail = breakdown.map { "; \($0)" } ?? ""
      let title =
        "LazyInject \(summary) of \(failing) of the \(classes.count) classes checked (without"
        + " making any object\(detail)):"
      messages.append(unresolvable(title, problems).description)
    }
    if !unreadable.isEmpty {
      messages.append(
        "LazyInject cannot list the stored properties of "
          + unreadable.map(typeName).joined(separator: ", ") + ", so none was checked.\n"
          + Self.reflectionFix)
    }
    if !withoutMetadata.isEmpty {
      messages.append(
        "LazyInject could not get the metadata of " + withoutMetadata.joined(separator: ", ")
          + " (its type record has no metadata accessor, or the accessor returned none), so it"
          + " was not checked.\nFix: name it with validate(classes:).")
    }
    if let (_, module) = scan, messages.isEmpty, propertyCount == 0 {
      let count = classes.count == 1 ? "1 class" : "\(classes.count) classes"
      messages.append(
        "LazyInject found no @Lazy or @WeakLazy property in the \(count) of the module \(module)"
          + " that it read, so no property was checked.\nFix: validate the module that declares"
          + " the properties, as `import` names it (the app's, rather than a library it imports).")
    }
    guard messages.isEmpty else {
      if !report.skippedGenericClasses.isEmpty {
        messages.append(report.skippedLine)
      }
      throw ResolutionError(.unresolvableProperties, messages.joined(separator: "\n"))
    }
    return report
  }

  /// The start of an error's title for `problems`: `"cannot resolve 2 properties"` when a read
  /// of each would stop the program; else `"found problems with 3 properties"`, with a
  /// breakdown such as `"1 cannot be resolved, 2 are always nil"`.
  private static func title(of problems: [PropertyCheck]) -> (String, breakdown: String?) {
    var failing = 0
    var alwaysNil = 0
    var undecided = 0
    for problem in problems {
      switch problem.outcome {
      case .nearMiss: alwaysNil += 1
      case .undecided: undecided += 1
      default: failing += 1
      }
    }
    let properties = problems.count == 1 ? "1 property" : "\(problems.count) properties"
    guard failing < problems.count else { return ("cannot resolve \(properties)", nil) }
    let parts = [
      failing == 0 ? nil : "\(failing) cannot be resolved",
      alwaysNil == 0 ? nil : "\(alwaysNil) \(alwaysNil == 1 ? "is" : "are") always nil",
      undecided == 0 ? nil : "\(undecided) cannot be checked without an object",
    ]
    return ("found problems with \(properties)", parts.compactMap { $0 }.joined(separator: ", "))
  }

  /// The error listing `problems` under `title`, with the fix.
  private func unresolvable(_ title: String, _ problems: [PropertyCheck]) -> ResolutionError {
    let layers = Self.layerCount(of: searchedRegistries)
    let lines =
      [title] + problems.map { "  - " + $0.problem(searchedLayers: layers) } + [
        "Fix: register an initializer for each, or make the type DefaultInitializable, unless"
          + " its line names another fix."
      ]
    return ResolutionError(.unresolvableProperties, lines.joined(separator: "\n"))
  }

  private static let reflectionFix =
    "Its reflection metadata is missing. Fix: build the module that declares it with reflection"
    + " metadata (the default; not with -disable-reflection-metadata or"
    + " SWIFT_REFLECTION_METADATA_LEVEL = none)."
}

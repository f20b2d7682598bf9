import LazyInject

// The checks of a whole app's classes, without making any object: `LazyInjectChecks`, a library
// for tests and tools, which apps do not ship. Every property is told by the registry's one
// decision (`decide`), as a first read would resolve it.

extension InitializerRegistry {
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
  /// other rule. A property served by an async initializer passes, and the report lists it in
  /// ``ValidationReport/asyncProperties``: read it after `prepare()` or `$property.load()`.
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
  ///   left out of the build; of kind ``ResolutionError/Kind/cannotCheck`` when only that last
  ///   kind of class was found, so that nothing could be checked.
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
  /// Finding the classes reads the type records of the images loaded in the process (on Darwin,
  /// the images outside the shared cache, collected as the Objective-C runtime reports them
  /// loaded), and getting a class's metadata runs its metadata accessor, which for a class that
  /// inherits from an Objective-C class may run the `+initialize` of its Objective-C superclasses,
  /// on the calling thread. The scan is tested on Linux; Darwin keeps the same records, in each
  /// image's `__swift5_types` sections, and CI cannot run it there. ``validate(classes:)`` needs
  /// no scan.
  ///
  /// - Parameters:
  ///   - moduleName: The module's name, as in `import MyApp` (a target's name with spaces and
  ///     dashes replaced by underscores).
  ///   - excluded: Classes not to check.
  /// - Returns: What was checked, and the generic classes skipped.
  /// A rule registered for one of the module's classes that no property of that class or of its
  /// subclasses can use (by its type, through a forward, or as the rule for one property) is a
  /// failure too: it would silently leave the screen it was meant for to another rule. The error
  /// names its site, its type, and the module's classes that have a property it could serve.
  /// Root defaults, rules for other modules' classes and rules for excluded classes are not
  /// judged (exclude a class whose rules only ``InitializerRegistry/resolve(_:for:)`` uses).
  ///
  /// What packages require from the program (``InitializerRegistry/require(_:fileID:line:)``)
  /// counts both ways. A property of the module that no rule serves passes when the module
  /// itself requires its type, and the report lists it in
  /// ``ValidationReport/requiredProperties``: a package's own tests check the package alone.
  /// The requirements of other modules are checked on their classes: each class that reads a
  /// required type must find a rule or `init()` for it, unless the checked module requires the
  /// type too (it passes the requirement on); else the check fails, naming the package, the
  /// requirement and the classes. So the app's check proves it provides what its packages need.
  ///
  /// On ``InitializerRegistry/shared``, a ``LinkedModule`` that was not installed fails the
  /// check too: a generic one that the module declares, or one of any module in a library loaded
  /// after the registry's first use (the error gives the fix of each).
  ///
  /// - Throws: The error of ``validate(classes:)``, which also names the module's classes whose
  ///   metadata the scan could not get, each rule no property can use, each requirement of
  ///   another module that nothing provides, and each linked module not installed; an error of kind
  ///   ``ResolutionError/Kind/cannotCheck``, checking nothing, when no class of the process
  ///   belongs to a module of that name (listing the modules that have classes), when the
  ///   platform keeps no type records LazyInject can read, when `excluded` names a class that is
  ///   not one of the module's non-generic classes, or when the module's classes have no `@Lazy`
  ///   or `@WeakLazy` property at all.
  @discardableResult
  public func validate(classesIn moduleName: String, excluding excluded: [AnyClass] = [])
    throws -> ValidationReport
  {
    let scan = try Self.scan(moduleName)
    let scanned = Set(scan.classes.map(ObjectIdentifier.init))
    let strangers = excluded.filter { !scanned.contains(ObjectIdentifier($0)) }
    guard strangers.isEmpty else {
      throw ResolutionError(
        .cannotCheck,
        "LazyInject cannot exclude " + strangers.map(typeName).joined(separator: ", ")
          + ": not a non-generic class of the module \(moduleName), so excluding it has no"
          + " effect; nothing was checked.\nFix: remove it from excluding:, or validate the"
          + " module that declares it (a generic class's specializations are never scanned).")
    }
    let excludedClasses = Set(excluded.map(ObjectIdentifier.init))
    return try validate(
      scan.classes.filter { !excludedClasses.contains(ObjectIdentifier($0)) },
      in: scan)
  }

  /// The classes of the module named `moduleName`.
  ///
  /// - Throws: When there is none, or the platform keeps no type records.
  static func scan(_ moduleName: String) throws -> ModuleScan {
    let scan = ModuleScan(module: moduleName)
    guard scan.isSupported else {
      throw ResolutionError(
        .cannotCheck,
        "LazyInject cannot list the classes of \(moduleName): this platform keeps no type records"
          + " it can read, so nothing was checked.\nFix: name the classes with"
          + " validate(classes:).")
    }
    guard scan.classes.isEmpty && scan.genericClasses.isEmpty else { return scan }
    let modules = ModuleScan.moduleNames
    throw ResolutionError(
      .cannotCheck,
      "LazyInject found no class in a module named \"\(moduleName)\", so nothing was checked.\n"
        + "Modules with classes in this process: \(modules.joined(separator: ", ")).\n"
        + "Fix: name the module as `import` does (a target's name, with spaces and dashes"
        + " replaced by underscores), one whose code is linked into this process.")
  }

  /// Checks `classes`: named by the caller, or with `scan`, the classes a module's scan found,
  /// less those excluded.
  private func validate(_ classes: [AnyClass], in scan: ModuleScan?) throws
    -> ValidationReport
  {
    var problems: [PropertyCheck] = []
    var (unreadable, async): ([String], [String]) = ([], [])
    var required: [String] = []
    var propertyCount = 0
    let registries = searchedRegistries
    let requirements = self.requirements
    // What the checked module requires from the program: its own check passes it.
    let ownRequirements = requirements.filter { $0.module == scan?.module }
    for containerClass in classes {
      let fields: [LazyField]
      do {
        fields = try LazyField.fields(of: containerClass)
      } catch {
        unreadable.append(error.message(typeName(containerClass)))
        continue
      }
      propertyCount += fields.count
      let checks = fields.map {
        check($0, in: containerClass, container: nil, registries: registries)
      }
      for check in checks where check.outcome.isProblem {
        if Self.isRequired(check, by: ownRequirements) {
          required.append(check.path)
        } else {
          problems.append(check)
        }
      }
      async += checks.compactMap { check in
        guard case .rule(let rule, _) = check.outcome, rule.source.isAsync else { return nil }
        return "\(typeName(containerClass)).\(check.field.displayName)"
      }
    }
    let withoutMetadata = scan?.classesWithoutMetadata ?? []
    let report = ValidationReport(
      checkedClasses: classes.map(typeName), checkedPropertyCount: propertyCount,
      skippedGenericClasses: scan?.genericClasses ?? [], asyncProperties: async,
      requiredProperties: required)
    var messages: [String] = []
    if !problems.isEmpty {
      let failing = Set(problems.map { ObjectIdentifier($0.containerClass) }).count
      let (summary, breakdown) = Self.title(of: problems)
      let detail = breakdown.map { "; \($0)" } ?? ""
      let title =
        "LazyInject \(summary) of \(failing) of the \(classes.count) classes checked (without"
        + " making any object\(detail)):"
      messages.append(
        Self.unresolvable(title, problems, searchedLayers: Self.layerCount(of: registries))
          .description)
    }
    if let scan,
      let unusable = unusableRules(
        judging: classes, among: scan.classes, module: scan.module, registries: registries)
    {
      messages.append(unusable)
    }
    if let scan,
      let unprovided = unprovidedRequirements(
        requirements, checking: scan.module, passedOn: ownRequirements, registries: registries)
    {
      messages.append(unprovided)
    }
    if let scan, self === Self.shared,
      case let modules = linkedModulesNotInstalled(declaredIn: scan.module), !modules.isEmpty
    {
      messages.append(
        "LazyInject found linked modules that InitializerRegistry.shared did not install, so"
          + " their rules are missing:\n" + modules.map { "- " + $0 }.joined(separator: "\n"))
    }
    let foundProblems = !messages.isEmpty
    messages += unreadable
    if !withoutMetadata.isEmpty {
      messages.append(
        "LazyInject could not get the metadata of " + withoutMetadata.joined(separator: ", ")
          + " (its type record has no metadata accessor, or the accessor returned none), so it"
          + " was not checked.\nFix: name it with validate(classes:).")
    }
    if let module = scan?.module, messages.isEmpty, propertyCount == 0 {
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
      // Problems found, or only what could not be checked.
      let kind: ResolutionError.Kind = foundProblems ? .unresolvableProperties : .cannotCheck
      throw ResolutionError(kind, messages.joined(separator: "\n"))
    }
    return report
  }

  /// The linked modules that this registry did not install, each with why and the fix.
  ///
  /// They are the generic ones that the module named `module` declares (its own check is where
  /// they are fixed), and any in a library loaded after the registry read the records. Empty
  /// where the platform keeps no conformance records to read.
  private func linkedModulesNotInstalled(declaredIn module: String) -> [String] {
    let known = linkedModules
    let loadedLater = LinkedModuleRecords(from: known.recordsRead)
    let generic = known.notInstallable.filter { $0.hasPrefix(module + ".") }.map { name in
      "\(name), a generic type: it cannot be made without its type arguments. Fix: declare a"
        + " non-generic LinkedModule that installs it."
    }
    let unread = (loadedLater.installable.map(\.name) + loadedLater.generic).map { name in
      "\(name), in a library loaded after the registry's first use. Fix: call"
        + " installLinkedModules() once the library is loaded."
    }
    return generic + unread
  }

  /// Whether `check` fails only because no rule serves a type that the checked module requires
  /// from the program.
  private static func isRequired(_ check: PropertyCheck, by requirements: [Requirement]) -> Bool {
    guard case .missing = check.outcome else { return false }
    return requirements.contains { $0.propertyType == check.field.valueType }
  }

  /// The failure for the requirements of other modules than `module` that nothing provides to
  /// the classes that read them, or nil when each is provided; a requirement that the checked
  /// module declares too (`passedOn`) is left to the program above it.
  private func unprovidedRequirements(
    _ requirements: [Requirement], checking module: String, passedOn: [Requirement],
    registries: [InitializerRegistry]
  ) -> String? {
    var lines: [String] = []
    var scans: [String: ModuleScan] = [:]  // Each module's classes, read once.
    for requirement in requirements where requirement.module != module {
      let isPassedOn = passedOn.contains { $0.propertyType == requirement.propertyType }
      guard !isPassedOn else { continue }
      let scan = scans[requirement.module] ?? ModuleScan(module: requirement.module)
      scans[requirement.module] = scan
      var readers: [String] = []
      var unreadable: [String] = []
      for containerClass in scan.classes {
        let fields: [LazyField]
        do {
          fields = try LazyField.fields(of: containerClass)
        } catch {
          unreadable.append(typeName(containerClass))
          continue
        }
        for field in fields where field.valueType == requirement.propertyType {
          let check = check(field, in: containerClass, container: nil, registries: registries)
          if check.outcome.isProblem {
            readers.append("\(typeName(containerClass)).\(field.displayName)")
          }
        }
      }
      if !readers.isEmpty {
        lines.append(
          "- \(requirement.description); nothing provides it to " + readers.joined(separator: ", "))
      }
      if !unreadable.isEmpty {
        lines.append(
          "- \(requirement.description); the properties of " + unreadable.joined(separator: ", ")
            + " cannot be read (their reflection metadata was left out), so they were not checked")
      }
    }
    guard !lines.isEmpty else { return nil }
    return "LazyInject found types that linked packages require and that this program does not"
      + " provide:\n" + lines.joined(separator: "\n")
      + "\nFix: register each in the app, or give the type an init() (DefaultInitializable)."
  }
}

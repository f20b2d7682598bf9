import LazyInject

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
  /// A property that an async rule serves passes, as in ``validate(classes:)``: its rule resolves
  /// it, through ``prepare()`` or `$property.load()`. A synchronous read of it before either has
  /// built its instance stops the program with that fix; ``explain(_:in:)`` says whether the
  /// instance is ready.
  ///
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing every property that cannot be resolved (no rule, a forward to a type with no
  ///   rule, a property rule whose key path leads to another object), with the search for each,
  ///   and every optional property that is always nil while a related type is registered; the
  ///   same kind when the class's stored properties cannot be listed because its reflection
  ///   metadata was left out.
  public func validate(_ container: AnyObject) throws {
    let containerClass: AnyClass = type(of: container)
    let fields: [LazyField]
    do { fields = try LazyField.fields(of: containerClass) } catch {
      throw ResolutionError(.cannotCheck, error.message(typeName(containerClass)))
    }
    var problems: [PropertyCheck] = []
    var registries = searchedRegistries
    for field in fields {
      // With the layers its first read would use: those the object was made under, if any, and
      // the caller's they lack.
      let state = state(of: field, in: container)
      guard !state.isResolved else { continue }
      registries = state.searched
      let check = check(field, in: containerClass, container: container, registries: registries)
      if check.outcome.isProblem { problems.append(check) }
    }
    guard !problems.isEmpty else { return }
    let (summary, breakdown) = Self.title(of: problems)
    throw Self.unresolvable(
      "LazyInject \(summary) of \(typeName(containerClass))"
        + (breakdown.map { " (\($0))" } ?? "") + ":", problems,
      searchedLayers: Self.layerCount(of: registries))
  }

  /// The start of an error's title for `problems`: `"cannot resolve 2 properties"` when a read
  /// of each would stop the program; else `"found problems with 3 properties"`, with a
  /// breakdown such as `"1 cannot be resolved, 2 are always nil"`.
  package static func title(of problems: [PropertyCheck]) -> (String, breakdown: String?) {
    var (failing, alwaysNil, undecided) = (0, 0, 0)
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
  package static func unresolvable(
    _ title: String, _ problems: [PropertyCheck], searchedLayers layers: Int
  ) -> ResolutionError {
    let fix =
      "Fix: register an initializer for each, or make the type DefaultInitializable,"
      + " unless its line names another fix."
    let lines = [title] + problems.map { "  - " + $0.problem(searchedLayers: layers) } + [fix]
    return ResolutionError(.unresolvableProperties, lines.joined(separator: "\n"))
  }
}

import LazyInject

extension InitializerRegistry {
  /// The dependency graph of a module's classes, as the registry's rules resolve it now, drawn
  /// in Graphviz's DOT and in Mermaid.
  ///
  /// ```swift
  /// let graph = InitializerRegistry.shared.dependencyGraph(classesIn: "MyApp")
  /// try graph.dot.write(toFile: "dependencies.dot", atomically: true, encoding: .utf8)
  /// print(graph.mermaid)  // paste into Markdown: GitHub draws it
  /// ```
  ///
  /// Classes and property types are the nodes. Each `@Lazy` or `@WeakLazy` property a class
  /// declares is an edge from the class to the property's type, labelled with the property and
  /// what serves it: the rule (`"in UsersViewController, unique scope"`, `"root default,
  /// forwarded to SharedAnalytics"`, `"its own rule, ..."` for a rule for one property; with
  /// `"layer 1, "` in front for an override layer's, and `" (or a rule for one property: told on
  /// first read)"` after it where one may apply), `init()`, `nil, no rule`, or a problem, drawn
  /// dashed: `missing`, `missing: forwarded to ..., which has no rule`, `missing: a cycle of
  /// forwards`, `always nil, near miss`, `undecided without an object`, `invalid key path`. A
  /// class whose superclass has `@Lazy` or `@WeakLazy` properties has an `inherits` edge to it,
  /// and an edge for an inherited property only where what serves it differs from the
  /// superclass's. A property whose type, or forward's target, is a class with `@Lazy`
  /// properties of its own is followed there. Nothing is built: see
  /// ``InitializerRegistry/validate(classes:)`` for what the rules alone can tell.
  public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// The graph in Graphviz's DOT language: `dot -Tsvg` draws it.
    public let dot: String

    /// The graph in Mermaid's flowchart syntax, which GitHub draws in a ` ```mermaid ` block.
    public let mermaid: String

    /// The DOT text.
    public var description: String { dot }
  }

  /// The dependency graph of every class of the module named `moduleName` that has `@Lazy` or
  /// `@WeakLazy` properties, and of the classes their values need.
  ///
  /// ```swift
  /// let graph = registry.dependencyGraph(classesIn: "MyApp")
  /// print(graph.dot)      // or graph.mermaid
  /// ```
  ///
  /// Finds the classes as ``validate(classesIn:excluding:)`` does. A name that matches no module,
  /// generic classes (skipped), classes whose metadata the scan could not get, and classes whose
  /// properties cannot be read are noted in the graph's text as comments.
  public func dependencyGraph(classesIn moduleName: String) -> DependencyGraph {
    do {
      let scan = try Self.scan(moduleName)
      var notes: [String] = []
      if !scan.genericClasses.isEmpty {
        notes.append("Skipped generic classes: \(scan.genericClasses.joined(separator: ", ")).")
      }
      if !scan.classesWithoutMetadata.isEmpty {
        notes.append(
          "Skipped classes whose metadata the scan could not get: "
            + "\(scan.classesWithoutMetadata.joined(separator: ", ")).")
      }
      return graph(of: scan.classes, module: moduleName, notes: notes)
    } catch {
      let note = "\(error)".split(separator: "\n").first.map(String.init) ?? ""
      return graph(of: [], module: moduleName, notes: [note])
    }
  }

  /// The dependency graph of `classes` and of the classes their values need.
  ///
  /// ```swift
  /// print(registry.dependencyGraph(classes: [UsersViewController.self]).mermaid)
  /// ```
  public func dependencyGraph(classes: [AnyClass]) -> DependencyGraph {
    let module = classes.first.map { typeName($0).prefix { $0 != "." } }.map(String.init)
    return graph(of: classes, module: module, notes: [])
  }

  private func graph(of classes: [AnyClass], module: String?, notes: [String])
    -> DependencyGraph
  {
    var builder = GraphBuilder(module: module)
    builder.notes = notes
    var queue = classes
    var visited = Set<ObjectIdentifier>()
    let registries = searchedRegistries
    while let containerClass = queue.first {
      queue.removeFirst()
      guard visited.insert(ObjectIdentifier(containerClass)).inserted else { continue }
      guard let fields = try? LazyField.fields(of: containerClass) else {
        builder.notes.append(
          "Unreadable (reflection metadata left out): \(typeName(containerClass)).")
        continue
      }
      // A subclass draws an inherited property only where its rule differs from its
      // superclass's, and an edge to the superclass, which is drawn too.
      let superclass: AnyClass? = _getSuperclass(containerClass).flatMap { superclass in
        (try? LazyField.fields(of: superclass))?.isEmpty == false ? superclass : nil
      }
      if let superclass {
        builder.addInheritance(from: containerClass, to: superclass)
        queue.append(superclass)
      }
      for field in fields {
        let check = check(field, in: containerClass, container: nil, registries: registries)
        queue += followed(check)
        if let superclass, field.declaringClass != containerClass,
          builder.summary(check.outcome)
            == builder.summary(
              self.check(field, in: superclass, container: nil, registries: registries).outcome)
        {
          continue
        }
        builder.add(check)
      }
    }
    return builder.graph
  }

  /// The classes a property's value leads to: its type, or a forward's target, if it is a class
  /// with `@Lazy` or `@WeakLazy` properties.
  private func followed(_ check: PropertyCheck) -> [AnyClass] {
    var types = [unwrappingOptionalTypes(check.field.valueType)]
    if case .rule(let registration, _) = check.outcome,
      let target = registration.source.forwardTarget
    {
      types.append(unwrappingOptionalTypes(target))
    }
    return types.compactMap { $0 as? AnyClass }.filter {
      !((try? LazyField.fields(of: $0))?.isEmpty ?? true)
    }
  }
}

/// `T` for `T?`, `T??`...
private func unwrappingOptionalTypes(_ type: Any.Type) -> Any.Type {
  var current = type
  while let wrapped = wrappedType(of: current) {
    current = wrapped
  }
  return current
}

/// Collects the nodes and edges, and writes them in both languages.
private struct GraphBuilder {
  /// The module whose name is left out of type names.
  let module: String?
  var notes: [String] = []
  /// Node names, in the order first seen, and whether each has `@Lazy` properties.
  private var nodes: [String] = []
  private var containers = Set<String>()
  private var edges: [Edge] = []
  private var seenEdges = Set<String>()

  struct Edge {
    let from: String
    let to: String
    let label: String
    /// Missing, always nil or undecided: drawn dashed.
    let isProblem: Bool
    let isWeak: Bool
    /// From a subclass to its superclass.
    var isInheritance = false
  }

  mutating func addInheritance(from subclass: AnyClass, to superclass: AnyClass) {
    let from = name(subclass)
    let to = name(superclass)
    containers.formUnion([from, to])
    for node in [from, to] where !nodes.contains(node) {
      nodes.append(node)
    }
    guard seenEdges.insert("\(from)\u{0}\(to)").inserted else { return }
    edges.append(
      Edge(
        from: from, to: to, label: "inherits", isProblem: false, isWeak: false,
        isInheritance: true))
  }

  init(module: String?) {
    self.module = module
  }

  mutating func add(_ check: PropertyCheck) {
    let from = name(check.containerClass)
    let to = name(check.field.valueType)
    containers.insert(from)
    for node in [from, to] where !nodes.contains(node) {
      nodes.append(node)
    }
    let label = "\(check.field.displayName): \(summary(check.outcome))"
    guard seenEdges.insert("\(from)\u{0}\(to)\u{0}\(label)").inserted else { return }
    edges.append(
      Edge(
        from: from, to: to, label: label, isProblem: check.outcome.isProblem,
        isWeak: check.field.isWeak))
  }

  /// What serves the property, in a few words.
  func summary(_ outcome: PropertyCheck.Outcome) -> String {
    switch outcome {
    case .rule(let registration, let undecided):
      let rule = registration.rule
      let layer = rule.overrideDepth == 0 ? "" : "layer \(rule.overrideDepth), "
      let subject =
        rule.isPropertyRule
        ? "its own rule" : rule.containerTypeName.map { "in \(shorten($0))" } ?? "root default"
      let what = rule.forwardTargetTypeName.map { "forwarded to \(shorten($0))" } ?? rule.what
      let alternative = undecided.isEmpty ? "" : " (or a rule for one property: told on first read)"
      return "\(layer)\(subject), \(what)\(alternative)"
    case .defaultInitializer: return "init()"
    case .none: return "nil, no rule"
    case .nearMiss: return "always nil, near miss"
    case .missing: return "missing"
    case .undecided: return "undecided without an object"
    case .invalidKeyPath: return "invalid key path"
    case .neverForwardable: return "forward that never succeeds"
    case .brokenForward(let forwards, _, let isCycle):
      guard !isCycle else { return "missing: a cycle of forwards" }
      let target = forwards.last?.source.forwardTarget.map(name) ?? "?"
      return "missing: forwarded to \(target), which has no rule"
    }
  }

  /// `"UsersViewController"`, `"(any ResourceLoading)?"`: the module's own prefix left out.
  private func name(_ type: Any.Type) -> String {
    shorten(codeName(type))
  }

  /// `name` without `"\(module)."` where it starts a qualified name: at the start, or after a
  /// character that is neither part of an identifier nor a dot (`MyApp.Screen` keeps its name
  /// for the module `App`, and so does `Outer.App.Screen`).
  private func shorten(_ name: String) -> String {
    guard let module else { return name }
    let prefix = Array("\(module).".unicodeScalars)
    let scalars = Array(name.unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let startsName =
        index == 0
        || !(scalars[index - 1] == "." || scalars[index - 1] == "_"
          || scalars[index - 1].properties.isAlphabetic
          || scalars[index - 1].properties.numericType != nil)
      if startsName, scalars[index...].starts(with: prefix) {
        index += prefix.count
        continue
      }
      result.append(scalars[index])
      index += 1
    }
    return String(result)
  }

  var graph: InitializerRegistry.DependencyGraph {
    InitializerRegistry.DependencyGraph(dot: dot, mermaid: mermaid)
  }

  private var dot: String {
    var lines = ["digraph LazyInject {", "  rankdir=LR;"]
    lines += notes.map { "  // \($0)" }
    for node in nodes {
      let shape = containers.contains(node) ? "box" : "ellipse"
      lines.append("  \(quoted(node)) [shape=\(shape)];")
    }
    for edge in edges {
      var attributes = ["label=\(quoted(edge.label))"]
      if edge.isInheritance {
        attributes += ["style=bold", "arrowhead=empty"]
      } else if edge.isProblem {
        attributes += ["color=red", "style=dashed"]
      } else if edge.isWeak {
        attributes.append("style=dotted")
      }
      lines.append(
        "  \(quoted(edge.from)) -> \(quoted(edge.to)) [\(attributes.joined(separator: ", "))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  private var mermaid: String {
    var lines = ["graph LR"]
    lines += notes.map { "  %% \($0)" }
    var identifiers: [String: String] = [:]
    for (index, node) in nodes.enumerated() {
      let identifier = "n\(index)"
      identifiers[node] = identifier
      let label = mermaidText(node)
      lines.append(
        containers.contains(node)
          ? "  \(identifier)[\"\(label)\"]" : "  \(identifier)([\"\(label)\"])")
    }
    for edge in edges {
      let arrow = edge.isInheritance ? "==>" : edge.isProblem || edge.isWeak ? "-.->" : "-->"
      lines.append(
        "  \(identifiers[edge.from]!) \(arrow)|\"\(mermaidText(edge.label))\"| \(identifiers[edge.to]!)"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// `text` as a DOT string.
  private func quoted(_ text: String) -> String {
    "\""
      + text.replacingEvery("\\", with: "\\\\")
      .replacingEvery("\"", with: "\\\"") + "\""
  }

  /// `text` inside a Mermaid string, with its entity codes for what Mermaid would read as markup.
  private func mermaidText(_ text: String) -> String {
    text.replacingEvery("\"", with: "#quot;")
      .replacingEvery("<", with: "#lt;")
      .replacingEvery(">", with: "#gt;")
  }
}

extension String {
  /// The string with every occurrence of `target` replaced by `replacement`. (The standard
  /// library's `replacing(_:with:)` needs macOS 13; Foundation's is not imported here.)
  fileprivate func replacingEvery(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var index = startIndex
    while index < endIndex {
      if self[index...].starts(with: target) {
        result += replacement
        index = self.index(index, offsetBy: target.count)
      } else {
        result.append(self[index])
        index = self.index(after: index)
      }
    }
    return result
  }
}

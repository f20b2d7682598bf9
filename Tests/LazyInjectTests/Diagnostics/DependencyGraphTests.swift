import LazyInject
import LazyInjectChecks
import LazyInjectValidationFixtures
import Testing

// The dependency graph of the fixture module, whose initializers trap: drawing builds nothing.

/// A namespace whose name ends with the module's.
enum MyLazyInjectTests {
  final class Service {}
}

/// A namespace with a namespace named as the module.
enum Shelves {
  enum LazyInjectTests {
    final class Row {}
  }
}

/// Properties whose types' names contain the module's name past their start.
final class ShortNamesScreen {
  @Lazy var service: MyLazyInjectTests.Service
  @Lazy var row: Shelves.LazyInjectTests.Row?
}

struct DependencyGraphTests {
  private let registry = InitializerRegistry.shared

  /// The graph of the fixtures with `Audit` registered for admins only.
  private func graph(of classes: [AnyClass]? = nil) -> InitializerRegistry.DependencyGraph {
    registry.withOverrides {
      $0.register(Audit.self, in: AdminScreen.self) { _ in Audit() }
    } operation: {
      classes.map { registry.dependencyGraph(classes: $0) }
        ?? registry.dependencyGraph(classesIn: "LazyInjectValidationFixtures")
    }
  }

  @Test func dotHasAnEdgePerPropertyLabelledWithItsRuleOrMissing() {
    let dot = graph().dot
    let lines = dot.split(separator: "\n").map(String.init)
    #expect(lines.first == "digraph LazyInject {")
    #expect(lines.last == "}")
    #expect(lines.contains("  \"AdminScreen\" [shape=box];"))
    #expect(lines.contains("  \"Audit\" [shape=ellipse];"))
    #expect(
      lines.contains {
        $0.hasPrefix(
          "  \"AdminScreen\" -> \"Audit\" [label=\"audit: layer 1, in AdminScreen, unique scope\"")
      }, "\(dot)")
    #expect(
      lines.contains(
        "  \"BaseScreen\" -> \"Audit\" [label=\"audit: missing\", color=red, style=dashed];"))
    #expect(lines.contains("  \"AdminScreen\" -> \"Clock\" [label=\"clock: init()\"];"))
    #expect(
      lines.contains(
        "  \"AdminScreen\" -> \"(any Tracking)?\" [label=\"delegate: nil, no rule\","
          + " style=dotted];"))
    #expect(
      lines.contains(
        "  // Skipped generic classes: LazyInjectValidationFixtures.Cache,"
          + " LazyInjectValidationFixtures.Shelf, LazyInjectValidationFixtures.Shelf.Row."))
  }

  @Test func mermaidDrawsTheSameGraph() {
    let mermaid = graph().mermaid
    let lines = mermaid.split(separator: "\n").map(String.init)
    #expect(lines.first == "graph LR")
    let admin = lines.first { $0.hasSuffix("[\"AdminScreen\"]") }?.split(separator: "[").first
    let audit = lines.first { $0.hasSuffix("([\"Audit\"])") }?.split(separator: "(").first
    let base = lines.first { $0.hasSuffix("[\"BaseScreen\"]") }?.split(separator: "[").first
    #expect(admin != nil && audit != nil && base != nil, "\(mermaid)")
    if let admin, let audit, let base {
      #expect(
        lines.contains(
          "\(admin) -->|\"audit: layer 1, in AdminScreen, unique scope\"| \(audit.dropFirst(2))"))
      #expect(lines.contains("\(base) -.->|\"audit: missing\"| \(audit.dropFirst(2))"))
    }
    #expect(
      lines.contains(
        "  %% Skipped generic classes: LazyInjectValidationFixtures.Cache,"
          + " LazyInjectValidationFixtures.Shelf, LazyInjectValidationFixtures.Shelf.Row."))
    // Labels are quoted strings, so that parentheses and `?` are not read as shapes.
    #expect(lines.contains { $0.hasSuffix("([\"(any Tracking)?\"])") })
  }

  @Test func graphOfClassesFollowsTheirValuesOwnLazyProperties() {
    let dot = graph(of: [AdminScreen.self]).dot
    #expect(dot.contains("\"AdminScreen\" -> \"ReportService\" [label=\"reports: missing\""))
    #expect(dot.contains("\"ReportService\" -> \"Audit\" [label=\"audit: missing\""), "\(dot)")
    #expect(!dot.contains("LedgerScreen"))
  }

  @Test func moduleNameIsLeftOutOnlyWhereAQualifiedNameStarts() {
    // The module is LazyInjectTests: `MyLazyInjectTests.Service` and
    // `Shelves.LazyInjectTests.Row` contain `LazyInjectTests.` past their start.
    let dot = InitializerRegistry().dependencyGraph(classes: [ShortNamesScreen.self]).dot
    #expect(dot.contains("  \"ShortNamesScreen\" [shape=box];"), "\(dot)")
    #expect(dot.contains("  \"MyLazyInjectTests.Service\" [shape=ellipse];"))
    #expect(dot.contains("  \"Shelves.LazyInjectTests.Row?\" [shape=ellipse];"))
    #expect(!dot.contains("MyService"))
  }

  @Test func graphOfAModuleThatHasNoClassSaysSo() {
    let graph = registry.dependencyGraph(classesIn: "NoSuchModule")
    #expect(
      graph.dot
        == "digraph LazyInject {\n  rankdir=LR;\n  // LazyInject found no class in a module named"
        + " \"NoSuchModule\", so nothing was checked.\n}")
    #expect(graph.mermaid.hasPrefix("graph LR\n  %% LazyInject found no class in a module named"))
  }
}

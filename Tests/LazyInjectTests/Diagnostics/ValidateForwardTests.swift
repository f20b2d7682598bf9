import LazyInject
import LazyInjectChecks
import Testing

// A forward resolves its target for the same object: the checks follow it there, so that a
// forward to a type with no rule fails them as it fails a read.

protocol ForwardedReporting: AnyObject {}
protocol ForwardedAuditing: AnyObject {}

/// Conforms to both protocols; neither `init()` nor a rule builds it unless a test registers one.
final class ForwardedReporter: ForwardedReporting, ForwardedAuditing {}

/// Conforms to neither protocol.
struct ForwardedSettings {}

protocol ForwardedExporting {}

/// A screen with a property of a protocol that no struct but its own conformers can be.
final class ExportingScreen {
  @Lazy var exporter: any ForwardedExporting
  @Lazy var reporter: ForwardedReporter
}

/// A screen whose properties are served by forwards only.
final class ForwardedScreen {
  @Lazy var reporter: any ForwardedReporting
  @Lazy var auditor: (any ForwardedAuditing)?
}

struct ValidateForwardTests {
  @Test func forwardToATypeWithNoRuleFailsValidationNamingBothTypes() throws {
    let registry = InitializerRegistry()
    registry.forward((any ForwardedReporting).self, to: ForwardedReporter.self)
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [ForwardedScreen.self])
    }
    #expect(error.kind == .unresolvableProperties)
    let lines = error.description.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "LazyInject cannot resolve 1 property of 1 of the 1 classes checked (without making"
        + " any object):")
    let line = try #require(
      lines.first { $0.hasPrefix("  - LazyInjectTests.ForwardedScreen.reporter:") })
    #expect(line.contains("any LazyInjectTests.ForwardedReporting; forwarded to"))
    #expect(
      line.contains(
        "forwarded to LazyInjectTests.ForwardedReporter (LazyInjectTests/ValidateForwardTests.swift:"
      ))
    #expect(
      line.contains(
        "which has no rule: searched LazyInjectTests.ForwardedScreen, then the root default."
          + " Fix: register LazyInjectTests.ForwardedReporter"))
    // What a read does, the check said: resolving the forwarded type fails.
    #expect(throws: ResolutionError.self) {
      try registry.resolve((any ForwardedReporting).self, for: ForwardedScreen())
    }
    #expect(throws: ResolutionError.self) { try registry.validate(ForwardedScreen()) }
  }

  @Test func optionalPropertyWhoseForwardFailsIsReportedNotNil() throws {
    let registry = InitializerRegistry()
    registry.register(ForwardedReporter.self) { _ in ForwardedReporter() }
    registry.forward((any ForwardedReporting).self, to: ForwardedReporter.self)
    registry.forward((any ForwardedAuditing).self, to: (any ForwardedReporting).self)
    // Through two forwards, to a registered type: everything resolves.
    try registry.validate(classes: [ForwardedScreen.self])

    registry.unregister(ForwardedReporter.self)
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [ForwardedScreen.self])
    }
    #expect(
      error.description.contains(
        "  - LazyInjectTests.ForwardedScreen.auditor: (any LazyInjectTests.ForwardedAuditing)?;"
          + " forwarded to any LazyInjectTests.ForwardedReporting ("),
      "\(error)")
    #expect(
      error.description.contains(
        "which is forwarded to LazyInjectTests.ForwardedReporter (LazyInjectTests/"))
    // The optional's read fails rather than giving nil: the check agrees with it.
    #expect(throws: ResolutionError.self) {
      try registry.resolve((any ForwardedAuditing)?.self, for: ForwardedScreen())
    }
  }

  @Test func cycleOfForwardsIsReported() throws {
    let registry = InitializerRegistry()
    registry.forward((any ForwardedReporting).self, to: (any ForwardedAuditing).self)
    registry.forward((any ForwardedAuditing).self, to: (any ForwardedReporting).self)
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [ForwardedScreen.self])
    }
    #expect(error.description.contains("a cycle of forwards, which fails the read"), "\(error)")
    #expect(throws: ResolutionError.self) {
      try registry.resolve((any ForwardedReporting).self, for: ForwardedScreen())
    }
  }

  @Test func explainAndTheGraphTellTheForwardFails() {
    let registry = InitializerRegistry()
    registry.forward((any ForwardedReporting).self, to: ForwardedReporter.self)
    let explained = registry.explain((any ForwardedReporting).self, in: ForwardedScreen.self)
    #expect(
      explained.contains(
        "Result: the root default, forwarded to LazyInjectTests.ForwardedReporter (LazyInjectTests/"
      ),
      "\(explained)")
    #expect(
      explained.contains(
        "). A read fails: forwarded to LazyInjectTests.ForwardedReporter (LazyInjectTests/"))
    #expect(explained.hasSuffix("or forward to a type that has a rule."))
    let dot = registry.dependencyGraph(classes: [ForwardedScreen.self]).dot
    #expect(
      dot.contains(
        "\"ForwardedScreen\" -> \"any ForwardedReporting\" [label=\"reporter: missing: forwarded to"
          + " ForwardedReporter, which has no rule\", color=red, style=dashed];"),
      "\(dot)")
  }

  @Test func forwardToItselfIsReportedAsNeverSucceeding() throws {
    let registry = InitializerRegistry()
    registry.forward(ForwardedReporter.self, in: ExportingScreen.self, to: ForwardedReporter.self)
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [ExportingScreen.self])
    }
    #expect(error.description.contains("can never succeed: it resolves"), "\(error)")
    #expect(error.description.contains("through itself, a cycle"))
  }

  @Test @MainActor func forwardToATypeThatNeverConformsIsReportedAsNeverSucceeding() throws {
    let registry = InitializerRegistry()
    registry.forward((any ForwardedExporting).self, to: ForwardedSettings.self)
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [ExportingScreen.self])
    }
    #expect(
      error.description.contains(
        "forward((any LazyInjectTests.ForwardedExporting).self, to:"
          + " LazyInjectTests.ForwardedSettings.self) at LazyInjectTests/ValidateForwardTests.swift:"
      ),
      "\(error)")
    #expect(error.description.contains("can never succeed: a LazyInjectTests.ForwardedSettings"))
  }

  @Test @MainActor func forwardThatMaySucceedIsNotReportedAsNeverSucceeding() {
    let registry = InitializerRegistry()
    registry.register(ForwardedReporter.self) { _ in ForwardedReporter() }
    // A subclass may conform, an optional unwraps, a mock may be built: types alone cannot tell.
    registry.forward((any ForwardedReporting).self, to: ForwardedReporter.self)
    registry.forward(
      (any ForwardedAuditing).self, in: ForwardedScreen.self, to: ForwardedScreen.self)
    registry.forward((any ForwardedExporting).self, to: (any ForwardedExporting)?.self)
    var text = ""
    do { try registry.validate(classes: [ForwardedScreen.self, ExportingScreen.self]) } catch {
      text = "\(error)"
    }
    #expect(!text.contains("can never succeed"), "\(text)")
  }
}

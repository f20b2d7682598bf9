import LazyInject
import LazyInjectChecks
import LazyInjectValidationFixtures
import Testing

// A rule registered for a class of the scanned module that no property of the class or of its
// subclasses can use is a failure of `validate(classesIn:)`: it compiles and prints nothing, and
// the screen it was meant for silently gets another rule's value. Rules are registered in
// override layers, the calling task's own (see ValidateClassesTests).

private let fixtures = "LazyInjectValidationFixtures"

/// Registers what every property of the fixtures needs (root defaults are never judged), then
/// `rules`, and runs the module check.
private func validateFixtures(with rules: (InitializerRegistry) -> Void) throws {
  let registry = InitializerRegistry.shared
  try registry.withOverrides {
    $0.register(Audit.self) { _ in Audit() }
    $0.register(ReportService.self) { _ in ReportService() }
    rules($0)
  } operation: {
    _ = try registry.validate(classesIn: fixtures)
  }
}

/// The lines of the error `body` throws.
private func failureLines(
  _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
  let error = try #require(
    throws: ResolutionError.self, sourceLocation: sourceLocation, performing: body)
  #expect(error.kind == .unresolvableProperties, sourceLocation: sourceLocation)
  return error.description.split(separator: "\n").map(String.init)
}

struct UnusableRuleTests {
  @Test func ruleForAClassWithoutSuchAPropertyIsReportedWithTheClassesThatHaveOne() throws {
    let lines = try failureLines {
      try validateFixtures {
        $0.register(ReportService.self, in: LedgerScreen.self, line: 7) { _ in ReportService() }
      }
    }
    #expect(
      lines.first
        == "LazyInject found 1 rule registered for classes of LazyInjectValidationFixtures that no"
        + " property can use:")
    #expect(
      lines.contains(
        "  - LazyInjectValidationFixtures.ReportService in LazyInjectValidationFixtures.LedgerScreen,"
          + " unique scope, override layer 1 (LazyInjectTests/UnusableRuleTests.swift:7):"
          + " LazyInjectValidationFixtures.LedgerScreen and its subclasses have no property that"
          + " can be served a LazyInjectValidationFixtures.ReportService; classes that do:"
          + " LazyInjectValidationFixtures.AdminScreen"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("Fix: register each for the class whose property") })
  }

  @Test func ruleForATypeNoClassOfTheModuleHoldsIsReported() throws {
    let lines = try failureLines {
      try validateFixtures { $0.register(String.self, in: AdminScreen.self) { _ in "" } }
    }
    #expect(
      lines.contains {
        $0.hasPrefix("  - Swift.String in LazyInjectValidationFixtures.AdminScreen,")
          && $0.hasSuffix(
            ": no class of the module has a property that can be served a Swift.String")
      }, "\(lines)")
  }

  @Test func typeRuleThatEveryPropertyRuleShadowsIsReported() throws {
    let lines = try failureLines {
      try validateFixtures {
        $0.register(Audit.self, in: ReceiptScreen.self) { _ in Audit() }
        $0.register(\ReceiptScreen.$auditLog) { _ in Audit() }
      }
    }
    // The title, the rule, the fix, and the generic classes skipped.
    #expect(lines.count == 4, "\(lines)")
    #expect(
      lines[1].hasPrefix(
        "  - LazyInjectValidationFixtures.Audit in LazyInjectValidationFixtures.ReceiptScreen,"))
    #expect(
      lines[1].hasSuffix(
        ": every LazyInjectValidationFixtures.Audit property of"
          + " LazyInjectValidationFixtures.ReceiptScreen is served by another rule (see"
          + " explain(_:in:))"))
  }

  @Test func rulesThatServeAPropertyPass() {
    #expect(throws: Never.self) {
      try validateFixtures {
        // By type, inherited by a subclass.
        $0.register(Audit.self, in: BaseScreen.self) { _ in Audit() }
        // For one property.
        $0.register(\ReceiptScreen.$auditLog) { _ in Audit() }
        // For `T` of a `T?` property.
        $0.register((any Tracking).self, in: AdminScreen.self) { _ in SharedAnalytics() }
      }
    }
  }

  @Test func ruleReachedOnlyThroughAForwardPasses() throws {
    // AdminScreen.tracker is `(any Tracking)?`: the forward serves it with the SharedAnalytics
    // rule, which no property declares.
    #expect(throws: Never.self) {
      try validateFixtures {
        $0.forward((any Tracking).self, to: SharedAnalytics.self)
        $0.register(SharedAnalytics.self, in: AdminScreen.self) { _ in SharedAnalytics() }
      }
    }
    // Without the forward, nothing reaches it.
    let lines = try failureLines {
      try validateFixtures {
        $0.register(SharedAnalytics.self, in: AdminScreen.self) { _ in SharedAnalytics() }
      }
    }
    #expect(
      lines.contains {
        $0.hasPrefix(
          "  - LazyInjectValidationFixtures.SharedAnalytics in LazyInjectValidationFixtures.AdminScreen,"
        )
      }, "\(lines)")
  }

  @Test func rulesForClassesOfOtherModulesOrExcludedClassesAreNotJudged() {
    #expect(throws: Never.self) {
      try validateFixtures { $0.register(String.self, in: UnusableRuleFixture.self) { _ in "" } }
    }
    let registry = InitializerRegistry.shared
    #expect(throws: Never.self) {
      try registry.withOverrides {
        $0.register(Audit.self) { _ in Audit() }
        $0.register(ReportService.self) { _ in ReportService() }
        $0.register(String.self, in: LedgerScreen.self) { _ in "" }
      } operation: {
        _ = try registry.validate(classesIn: fixtures, excluding: [LedgerScreen.self])
      }
    }
  }

  @Test func validateOfNamedClassesDoesNotJudgeRules() {
    let registry = InitializerRegistry.shared
    #expect(throws: Never.self) {
      try registry.withOverrides {
        $0.register(Audit.self) { _ in Audit() }
        $0.register(String.self, in: LedgerScreen.self) { _ in "" }
      } operation: {
        _ = try registry.validate(classes: [LedgerScreen.self])
      }
    }
  }
}

/// A class of this module, not of the fixtures'.
private final class UnusableRuleFixture {}

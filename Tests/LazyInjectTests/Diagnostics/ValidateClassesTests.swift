import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectStrippedFixtures
import LazyInjectValidationFixtures
import Testing

// Checking classes without making objects: every initializer of the fixtures but LedgerScreen's
// traps, so a check that constructed anything would stop the run (one test makes a LedgerScreen
// on purpose). Rules are registered in override layers, which are the calling task's own:
// parallel tests never see each other's.

private let fixtures = "LazyInjectValidationFixtures"

/// A class of this module, not of the fixtures'.
final class ScannedElsewhere {}

/// The lines of the message of the error of `kind` that `body` throws; the test stops if it
/// throws none.
private func messageLines(
  _ kind: ResolutionError.Kind = .unresolvableProperties, _ body: () throws -> Void,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
  let error = try #require(
    throws: ResolutionError.self, sourceLocation: sourceLocation, performing: body)
  #expect(error.kind == kind, sourceLocation: sourceLocation)
  return "\(error)".split(separator: "\n").map(String.init)
}

struct ValidateClassesTests {
  private let registry = InitializerRegistry.shared

  @Test func listsEachPropertyWithNoRuleAndNothingElse() throws {
    let lines = try messageLines {
      try registry.validate(classes: [BaseScreen.self, AdminScreen.self])
    }
    #expect(
      lines.first
        == "LazyInject cannot resolve 3 properties of 2 of the 2 classes checked (without making"
        + " any object):")
    #expect(
      lines.contains(
        "  - LazyInjectValidationFixtures.BaseScreen.audit: LazyInjectValidationFixtures.Audit;"
          + " searched LazyInjectValidationFixtures.BaseScreen, then the root default"))
    #expect(
      lines.contains(
        "  - LazyInjectValidationFixtures.AdminScreen.audit: LazyInjectValidationFixtures.Audit"
          + " (declared in LazyInjectValidationFixtures.BaseScreen); searched"
          + " LazyInjectValidationFixtures.AdminScreen, LazyInjectValidationFixtures.BaseScreen,"
          + " then the root default"))
    // AdminScreen.reports is a ReportService: not DefaultInitializable, no rule.
    #expect(
      lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.AdminScreen.reports:") })
    // The DefaultInitializable clock, the optional tracker and the weak delegate pass.
    #expect(!lines.contains { $0.contains(".clock") || $0.contains(".tracker") })
    #expect(!lines.contains { $0.contains(".delegate") })
    #expect(lines.count == 5)
  }

  @Test func eachSubclassIsCheckedWithItsOwnRules() throws {
    try registry.withOverrides {
      $0.register(Audit.self, in: AdminScreen.self) { _ in Audit() }
      $0.register(ReportService.self) { _ in ReportService() }
    } operation: {
      let lines = try messageLines {
        try registry.validate(classes: [BaseScreen.self, AdminScreen.self])
      }
      #expect(lines.count == 3)
      #expect(lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.BaseScreen.audit:") })
    }
  }

  @Test func rulesOfOverrideLayersCount() throws {
    let report = try registry.withOverrides {
      $0.register(Audit.self) { _ in Audit() }
      $0.register(ReportService.self) { _ in ReportService() }
    } operation: {
      try registry.validate(classes: [BaseScreen.self, AdminScreen.self, ReportService.self])
    }
    #expect(report.checkedClasses.count == 3)
    // BaseScreen: audit. AdminScreen: audit, clock, tracker, delegate, reports. ReportService: audit.
    #expect(report.checkedPropertyCount == 7)
    #expect(report.skippedGenericClasses.isEmpty)
  }

  @Test func optionalPropertyThatIsAlwaysNilBesideARegisteredConformingTypeIsReported() throws {
    try registry.withOverrides {
      $0.register(Audit.self) { _ in Audit() }
      $0.register(ReportService.self) { _ in ReportService() }
      $0.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
    } operation: {
      let lines = try messageLines { try registry.validate(classes: [AdminScreen.self]) }
      #expect(
        lines.contains {
          $0.hasPrefix(
            "  - LazyInjectValidationFixtures.AdminScreen.tracker:"
              + " (any LazyInjectValidationFixtures.Tracking)? is always nil: no rule serves any"
              + " LazyInjectValidationFixtures.Tracking, and these registrations of related types"
              + " do not apply: LazyInjectValidationFixtures.SharedAnalytics root default,")
        }, "\(lines)")
      #expect(
        lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.AdminScreen.delegate:") })
      // Nothing fails: the title does not say that anything cannot be resolved.
      #expect(
        lines.first
          == "LazyInject found problems with 2 properties of 1 of the 1 classes checked (without"
          + " making any object; 2 are always nil):")
      let explained = registry.explain((any Tracking)?.self, in: AdminScreen.self)
      #expect(explained.contains("Near miss: these registrations of related types do not apply"))
      #expect(
        explained.contains("forward((any LazyInjectValidationFixtures.Tracking).self, to: ...)"))
    }
  }

  @Test func forwardingTheProtocolClearsTheNearMiss() {
    #expect(throws: Never.self) {
      _ = try registry.withOverrides {
        $0.register(Audit.self) { _ in Audit() }
        $0.register(ReportService.self) { _ in ReportService() }
        $0.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
        $0.forward((any Tracking).self, to: SharedAnalytics.self)
      } operation: {
        try registry.validate(classes: [AdminScreen.self])
      }
    }
  }

  @Test func moduleScanChecksEveryClassAndSkipsGenericOnes() throws {
    let lines = try messageLines { try registry.validate(classesIn: fixtures) }
    #expect(
      lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.ReportService.audit:") })
    #expect(
      lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.LedgerScreen.auditLog:") })
    #expect(
      lines.last
        == "Skipped generic classes (validate their specializations with validate(classes:)):"
        + " LazyInjectValidationFixtures.Cache, LazyInjectValidationFixtures.Shelf,"
        + " LazyInjectValidationFixtures.Shelf.Row.")
  }

  @Test func moduleScanPassesOnceEveryPropertyHasARule() throws {
    let report = try registry.withOverrides {
      $0.register(Audit.self) { _ in Audit() }
      $0.register(ReportService.self) { _ in ReportService() }
    } operation: {
      try registry.validate(classesIn: fixtures)
    }
    #expect(report.checkedClasses.contains("LazyInjectValidationFixtures.ReportService"))
    #expect(report.checkedClasses.contains("LazyInjectValidationFixtures.Audit"))
    // A class nested in a generic class is named with it.
    #expect(
      report.skippedGenericClasses == [
        "LazyInjectValidationFixtures.Cache", "LazyInjectValidationFixtures.Shelf",
        "LazyInjectValidationFixtures.Shelf.Row",
      ])
    #expect(
      report.description.hasSuffix(
        "; not checked: generic classes LazyInjectValidationFixtures.Cache,"
          + " LazyInjectValidationFixtures.Shelf, LazyInjectValidationFixtures.Shelf.Row (validate"
          + " their specializations with validate(classes:))."))
    // The specialization of a generic class is checked when named.
    #expect(throws: ResolutionError.self) { try registry.validate(classes: [Cache<Int>.self]) }
  }

  @Test func excludedClassesAreLeftOutButNotTheirSubclasses() throws {
    let lines = try messageLines {
      try registry.validate(classesIn: fixtures, excluding: [BaseScreen.self])
    }
    #expect(!lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.BaseScreen.") })
    #expect(lines.contains { $0.hasPrefix("  - LazyInjectValidationFixtures.AdminScreen.audit:") })
  }

  @Test func excludingAClassTheScanDoesNotCheckIsAnError() throws {
    let lines = try messageLines(.cannotCheck) {
      try registry.validate(
        classesIn: fixtures, excluding: [BaseScreen.self, Cache<Int>.self, ScannedElsewhere.self])
    }
    #expect(
      lines.first
        == "LazyInject cannot exclude LazyInjectValidationFixtures.Cache<Swift.Int>,"
        + " LazyInjectTests.ScannedElsewhere: not a non-generic class of the module"
        + " LazyInjectValidationFixtures, so excluding it has no effect; nothing was checked.")
    #expect(lines.last?.hasPrefix("Fix: remove it from excluding:") == true)
    #expect(lines.count == 2)
  }

  @Test func moduleWhoseClassesHaveNoLazyPropertyIsAnError() throws {
    // LazyInjectTesting's classes have no `@Lazy` property: a test that names it checks nothing.
    let lines = try messageLines(.cannotCheck) {
      try registry.validate(classesIn: "LazyInjectTesting")
    }
    #expect(
      lines.first?.hasPrefix("LazyInject found no @Lazy or @WeakLazy property in the ") == true)
    #expect(
      lines.first?.hasSuffix(
        " of the module LazyInjectTesting that it read, so no property was checked.") == true,
      "\(lines)")
    #expect(lines.last?.hasPrefix("Fix: validate the module that declares the properties") == true)
  }

  @Test func moduleNameThatMatchesNoClassIsAnError() throws {
    let lines = try messageLines(.cannotCheck) {
      try registry.validate(classesIn: "LazyInjectValidationFixture")
    }
    #expect(
      lines.first
        == "LazyInject found no class in a module named \"LazyInjectValidationFixture\", so"
        + " nothing was checked.")
    #expect(
      lines.contains {
        $0.hasPrefix("Modules with classes in this process:") && $0.contains(fixtures)
      })
  }

  @Test func classesWithoutReflectionMetadataAreAnErrorNotAPass() throws {
    let lines = try messageLines(.cannotCheck) {
      try registry.validate(classes: [StrippedScreen.self])
    }
    #expect(
      lines.first
        == "LazyInject cannot list the stored properties of"
        + " LazyInjectStrippedFixtures.StrippedScreen, so none was checked.")
    #expect(lines.contains { $0.contains("-disable-reflection-metadata") })
    #expect(throws: ResolutionError.self) {
      try registry.validate(classesIn: "LazyInjectStrippedFixtures")
    }
    #expect(throws: ResolutionError.self) { try registry.validate(StrippedScreen()) }
  }

  @Test func ruleForOnePropertyCountsWhenItsClassHasOnePropertyOfTheType() {
    #expect(throws: Never.self) {
      _ = try registry.withOverrides {
        $0.register(\ReceiptScreen.$auditLog) { _ in Audit() }
      } operation: {
        try registry.validate(classes: [ReceiptScreen.self])
      }
    }
  }

  @Test func ruleForOneOfSeveralPropertiesIsReportedUntilAnObjectTellsWhichOne() throws {
    try registry.withOverrides {
      $0.register(\LedgerScreen.$auditLog) { _ in Audit() }
      $0.register(\LedgerScreen.$debugLog) { _ in Audit() }
    } operation: {
      let lines = try messageLines { try registry.validate(classes: [LedgerScreen.self]) }
      #expect(lines.count == 4, "\(lines)")
      #expect(
        lines.contains {
          $0.hasPrefix("  - LazyInjectValidationFixtures.LedgerScreen.auditLog:")
            && $0.contains("cannot be told without an object")
        })
      // An object tells: the rules know their properties from then on.
      try registry.validate(LedgerScreen())
      try registry.validate(classes: [LedgerScreen.self])
    }
  }
}

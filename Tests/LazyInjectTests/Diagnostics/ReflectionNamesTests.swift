import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectNamelessFixtures
import LazyInjectTestSupport
import Testing

// Classes of a module built without reflection names (Xcode's SWIFT_REFLECTION_METADATA_LEVEL =
// without-names): reads work, and what needs a property's name says that it is missing and which
// build setting leaves it out, instead of an empty name.

struct ReflectionNamesTests {
  @Test func checkOfAClassWithoutNamesSaysTheNameIsMissingAndNamesTheSetting() throws {
    let registry = InitializerRegistry()
    let error = try #require(throws: ResolutionError.self) {
      try registry.validate(classes: [NamelessScreen.self])
    }
    #expect(error.description.contains("NamelessScreen.(a property whose name is missing"))
    #expect(error.description.contains("SWIFT_REFLECTION_METADATA_LEVEL = without-names"))
    #expect(!error.description.contains("NamelessScreen.:"))
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func ruleForOnePropertyOfAClassWithoutNamesServesItsPropertyAndSaysItsNameIsMissing()
      async throws
    {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(\NamelessScreen.$debug) { _ in NamelessDebug() }
        let screen = NamelessScreen()
        _ = screen.debug
        guard let rule = screen.$debug.rule, rule.isPropertyRule else {
          failExitTest("the property rule did not serve its property")
        }
        require(rule.propertyName == nil, "a name was made up: \(rule)")
        require("\(rule)".contains("name is missing"), "the rule hides the missing name: \(rule)")
      }
    }

    @Test func observerOfAClassWithoutNamesIsNotToldAnEmptyNameAndAWarningSaysWhy() async throws {
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
          startWatchdog()
          let screen = NamelessScreen()
          _ = screen.audit
          require(screen.injectedNames.isEmpty, "told \(screen.injectedNames)")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("NamelessScreen observes injections"))
      #expect(output.contains("SWIFT_REFLECTION_METADATA_LEVEL = all"))
    }
  #endif
}

import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

private final class Service {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Screen {}

private final class ReportScreen {
  @Lazy var auditLog: Service
  @Lazy var debugLog: Service
}

struct DuplicateRegistrationTests {
  @Test func laterRegistrationReplacesTheEarlierAndIsReported() throws {
    let registry = InitializerRegistry()
    let reports = Locked<[InitializerRegistry.DuplicateRegistration]>([])
    registry.duplicateRegistrationHandler = { duplicate in reports.withLock { $0.append(duplicate) }
    }
    registry.register(Service.self) { _ in Service("first") }
    registry.register(Service.self) { _ in Service("second") }
    #expect(try registry.resolve(Service.self, for: Screen()).name == "second")
    let report = try #require(reports.withLock { $0 }.first)
    #expect(reports.withLock { $0.count } == 1)
    guard case .registration(_, let replaced) = report.replaced.source,
      case .registration(_, let replacement) = report.replacement.source
    else {
      Issue.record("a registration's rule has no site")
      return
    }
    #expect(replaced + 1 == replacement)
    #expect(
      report.description.contains(
        "replaces the registration at LazyInjectTests/DuplicateRegistrationTests.swift:"))
  }

  @Test func replacedSingletonIsNamedInTheWarning() throws {
    let registry = InitializerRegistry()
    let reports = Locked<[String]>([])
    registry.duplicateRegistrationHandler = { duplicate in
      reports.withLock { $0.append(duplicate.description) }
    }
    registry.register(Service.self, scope: .singleton) { _ in Service("first") }
    registry.register(Service.self) { _ in Service("second") }
    registry.register(Service.self) { _ in Service("third") }
    let descriptions = reports.withLock { $0 }
    #expect(descriptions.count == 2)
    #expect(descriptions.first?.hasSuffix(" (singleton scope).") == true, "\(descriptions)")
    #expect(descriptions.last?.contains("scope)") == false, "\(descriptions)")  // Same scope.
  }

  @Test func replacedPropertyRuleIsReportedButTheOtherPropertysRuleIsNot() {
    let registry = InitializerRegistry()
    let reports = Locked<[InitializerRegistry.DuplicateRegistration]>([])
    registry.duplicateRegistrationHandler = { duplicate in reports.withLock { $0.append(duplicate) }
    }
    registry.register(\ReportScreen.$auditLog) { _ in Service("first") }
    registry.register(\ReportScreen.$debugLog) { _ in Service("debug") }
    registry.register(\ReportScreen.$auditLog) { _ in Service("second") }
    let descriptions = reports.withLock { $0 }.map(\.description)
    #expect(descriptions.count == 1)
    #expect(descriptions.first?.contains("replaces the registration") == true, "\(descriptions)")
  }

  @Test func sameTypeForAnotherContainerIsNoDuplicate() {
    let registry = InitializerRegistry()
    let reports = Counter()
    registry.duplicateRegistrationHandler = { _ in reports.increment() }
    registry.register(Service.self) { _ in Service("root") }
    registry.register(Service.self, in: Screen.self) { _ in Service("screen") }
    #expect(reports.value == 0)
  }

  @Test func overrideLayersInheritTheHandler() {
    let registry = InitializerRegistry()
    let reports = Counter()
    registry.duplicateRegistrationHandler = { _ in reports.increment() }
    registry.withOverrides { overrides in
      overrides.register(Service.self) { _ in Service("a") }
      overrides.register(Service.self) { _ in Service("b") }
    } operation: {
    }
    #expect(reports.value == 1)
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func defaultHandlerWarnsOnStandardErrorOncePerPairOfSites() async throws {
      let result = try #require(
        await #expect(
          processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
          startWatchdog()
          final class Repeated {}
          let registry = InitializerRegistry()
          // Explicit lines: inside the exit test's expansion, every call has the same #line.
          for _ in 0..<3 {
            registry.register(Repeated.self, line: 1) { _ in Repeated() }  // One pair, twice.
          }
          registry.register(Repeated.self, line: 2) { _ in Repeated() }  // A second pair.
        })
      let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
      let warnings = errors.split(separator: "\n").filter { $0.hasPrefix("LazyInject warning:") }
      #expect(warnings.count == 2)
      #expect(warnings.first?.contains("Repeated root default, unique scope") == true)
      #expect(String(decoding: result.standardOutputContent, as: UTF8.self).isEmpty)
    }
  #endif
}

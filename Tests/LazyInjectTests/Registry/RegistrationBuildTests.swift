import LazyInject
import LazyInjectTestSupport
import Testing

// A registration's initializer writes its value into memory that the reader gives: on the
// stack on the fast path; on the general path, an object into a word, another value in an
// allocation of its own; boxed as `Any` for a `T?` property that a rule of `T` serves. Each path builds a value larger than an existential's
// inline buffer, holding references, whole, and a small one too; and every reference they hold
// is released with them (the address sanitizer run of CI checks the memory itself).

private final class Part: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// Six words, two of them references: larger than the three words an `Any` holds inline.
private struct Report: Sendable {
  let title: String
  let part: Part
  let pages: [Int]
  let counts: (Int, Int)
}

/// Two words, one a reference: smaller than an existential's inline buffer.
private struct Memo: Sendable {
  let part: Part
  let number: Int
}

private func report(_ title: String, part: Part) -> Report {
  Report(title: title, part: part, pages: [1, 2, 3], counts: (4, 5))
}

private func isWhole(_ report: Report, titled title: String) -> Bool {
  report.title == title && report.part.name == title && report.pages == [1, 2, 3]
    && report.counts == (4, 5)
}

private final class Desk {
  @Lazy var report: Report
  @Lazy var optionalReport: Report?
}

private final class PinnedDesk {
  @Lazy var report: Report
}

struct RegistrationBuildTests {
  @Test func aLargeValueIsBuiltWholeByEveryKindOfRegistration() throws {
    let registry = InitializerRegistry()
    registry.register(Report.self) { _ in report("root", part: Part("root")) }
    registry.register(Report.self, in: PinnedDesk.self) { _ in
      report("pinned", part: Part("pinned"))
    }
    let resolved = try registry.resolve(Report.self, for: Desk())
    #expect(isWhole(resolved, titled: "root"))
    let pinned = try registry.resolve(Report.self, for: PinnedDesk())
    #expect(isWhole(pinned, titled: "pinned"))
    // `T?`, which the rule of `T` serves: the value is built as `Any`, then wrapped.
    let optional = try registry.resolve(Report?.self, for: Desk())
    #expect(optional.map { isWhole($0, titled: "root") } == true)
  }

  @Test func aLargeValueReadThroughPropertiesIsWholeAndReleasedWithItsObject() {
    weak var released: Part?
    InitializerRegistry.shared.withOverrides {
      $0.register(Report.self) { _ in report("root", part: Part("root")) }
      $0.register(Report.self, in: PinnedDesk.self) { _ in
        report("pinned", part: Part("pinned"))
      }
      $0.register(\Desk.$optionalReport) { _ in report("property", part: Part("property")) }
    } operation: {
      do {
        let desk = Desk()
        #expect(isWhole(desk.report, titled: "root"))
        #expect(desk.optionalReport.map { isWhole($0, titled: "property") } == true)
        let pinned = PinnedDesk()
        #expect(isWhole(pinned.report, titled: "pinned"))
        released = pinned.report.part
        #expect(released != nil)
      }
    }
    #expect(released == nil)
  }

  @Test func aSmallValueIsBuiltWholeOnTheGeneralPathAndReleased() throws {
    weak var released: Part?
    let registry = InitializerRegistry()
    registry.register(Memo.self) { _ in Memo(part: Part("memo"), number: 7) }
    do {
      let memo = try registry.resolve(Memo.self, for: Desk())
      #expect(memo.part.name == "memo" && memo.number == 7)
      released = memo.part
      #expect(released != nil)
    }
    #expect(released == nil)
  }

  @Test func anObjectBuiltOnTheGeneralPathIsTheInitializersAndIsReleased() throws {
    weak var released: Part?
    let registry = InitializerRegistry()
    registry.register(Part.self) { _ in Part("object") }
    do {
      let part = try registry.resolve(Part.self, for: Desk())
      #expect(part.name == "object")
      released = part
      #expect(released != nil)
    }
    #expect(released == nil)
  }

  @MainActor @Test func aMainActorRuleBuildsALargeValueWhole() throws {
    let registry = InitializerRegistry()
    registry.registerOnMainActor(Report.self) { _ in report("main", part: Part("main")) }
    #expect(isWhole(try registry.resolve(Report.self, for: Desk()), titled: "main"))
  }
}

// Exit tests only: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  /// Builds a value on the fast path: a fresh process, where no override layer was ever made.
  private final class FastDesk {
    @Lazy var report: Report
  }

  extension RegistrationBuildTests {
    @Test func theFastPathBuildsALargeValueWholeAndReleasesIt() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(Report.self) { _ in
          report("fast", part: Part("fast"))
        }
        weak var released: Part?
        // The third read of the pair finds its entry in the fast path's table.
        for _ in 0..<5 {
          let desk = FastDesk()
          guard isWhole(desk.report, titled: "fast") else {
            failExitTest("a value built on the fast path was not whole")
          }
          released = desk.report.part
        }
        guard released == nil else { failExitTest("a value built on the fast path leaked") }
      }
    }
  }
#endif

// What scripts/check-style flags (each line marked with its kind after "flags:"), and the plain
// forms it lets pass. Never compiled: `scripts/check-style --fixture` only reads it.

struct Pair {
  var first: Int
  var second: Int

  init(first: Int, second: Int) {
    (self.first, self.second) = (first, second)  // flags: tuple-assignment
  }

  mutating func swap() {
    (first, second) = (second, first)  // A permutation of itself: fine.
  }
}

func destructuring() -> Int {
  let (quotient, remainder) = 17.quotientAndRemainder(dividingBy: 5)  // A call's result: fine.
  var (count, total) = (0, 0)  // flags: tuple-assignment
  count += quotient
  total += remainder
  return count + total
}

func positional(_ pair: (Int, Int)) -> Double {
  let scale = 1.5  // A numeric literal: fine.
  return Double(pair.0) * scale  // flags: positional-member
}

func nested(_ rows: [[Int]]) -> [Int] {
  rows.map { $0.filter { $0 > 0 }.count }  // flags: nested-dollar
}

func plainNested(_ rows: [[Int]]) -> [Int] {
  rows.map { row in row.filter { $0 > 0 }.count }  // One closure uses $0: fine.
}

func kept(_ value: Int, _ state: inout Int) {  // flags: unlabeled-parameters
  state += value
}

func labeled(_ value: Int, in state: inout Int) {  // One unlabeled parameter: fine.
  state += value
}

public func publicAPI(_ value: Int, _ other: Int) -> Int { value + other }  // Public: fine.

@usableFromInline func inlinable(_ value: Int, _ other: Int) -> Int {  // flags: unlabeled-parameters
  value + other
}

package func packaged(_ value: Int, _ other: Int) -> Int { value + other }  // API: fine.

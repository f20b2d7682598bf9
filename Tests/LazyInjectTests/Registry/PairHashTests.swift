import Testing
import _LazyInjectShims

// The hash of a (property type, container class) pair, which the fast path
// table probes by. It mixes the two metadata addresses in 64 bits whatever the word size: on
// watchOS's arm64_32 they are 32-bit words, and a hash that shifted a word by its width would
// send every pair to one bucket. These words stand in for such addresses (metadata records are
// aligned and close together), so this machine checks what a 32-bit one computes.

struct PairHashTests {
  /// Addresses as a 32-bit platform lays metadata out: aligned, a few kilobytes apart.
  private let properties: [UInt64] = (0..<64).map { 0x0010_2000 + UInt64($0) * 0x48 }
  private let containers: [UInt64] = (0..<64).map { 0x0031_8000 + UInt64($0) * 0x90 }

  @Test func pairsOf32BitWordsSpreadOverTheTable() {
    var hashes = Set<UInt64>()
    var buckets = [Int](repeating: 0, count: 1024)
    for property in properties {
      for container in containers {
        let hash = _lazyinject_hash_words(property, container)
        hashes.insert(hash)
        buckets[Int(hash & 1023)] += 1
      }
    }
    // 4,096 pairs: distinct hashes, and a table of 1,024 buckets filled about evenly.
    #expect(hashes.count == properties.count * containers.count)
    #expect(buckets.filter { $0 == 0 }.count < 64, "empty buckets: a poor spread")
    #expect(buckets.max()! <= 16, "a crowded bucket: a poor spread")
  }

  @Test func hashDependsOnBothWordsAndTheirOrder() {
    let (a, b): (UInt64, UInt64) = (0x0010_2048, 0x0031_8090)
    #expect(_lazyinject_hash_words(a, b) != _lazyinject_hash_words(b, a))
    #expect(_lazyinject_hash_words(a, b) != _lazyinject_hash_words(a, b + 0x90))
    #expect(_lazyinject_hash_words(a, b) != _lazyinject_hash_words(a + 0x48, b))
    // Its low bits, which index a table, change when only a high bit of a word does.
    #expect(
      _lazyinject_hash_words(a, b) & 1023 != _lazyinject_hash_words(a | 1 << 31, b) & 1023)
  }
}

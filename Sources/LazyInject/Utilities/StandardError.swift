#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#endif

/// Writes `text` to standard error, where warnings belong (standard output is the program's).
internal func writeToStandardError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in
    var rest = UnsafeRawBufferPointer(bytes)
    while !rest.isEmpty {
      let written = write(2, rest.baseAddress, rest.count)
      guard written > 0 else { return }
      rest = UnsafeRawBufferPointer(rebasing: rest[written...])
    }
  }
}

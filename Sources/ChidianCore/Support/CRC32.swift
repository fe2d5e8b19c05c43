import CCompressZlib

/// CRC-32 as ZIP, PNG and gzip use it (polynomial 0xEDB88320, reflected), computed by zlib.
public enum CRC32 {
    /// The CRC of `bytes`, or of what `crc` was the CRC of followed by `bytes`.
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CCompressZlib.crc32(UInt(crc), buffer.baseAddress, UInt32(buffer.count)))
        }
    }

    /// The CRC of A followed by B, from A's CRC, B's CRC and B's length, without reading either.
    package static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(UInt(first), UInt(second), off_t(secondLength)))
    }
}

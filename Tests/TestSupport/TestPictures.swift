import Foundation

/// Small pictures for tests of content that carries them.
public enum TestPictures {
    /// A one-pixel PNG.
    public static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!)
}

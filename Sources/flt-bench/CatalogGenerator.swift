import Foundation

/// Writes a generated phone catalog as JSON Lines and CSV, for the data benchmark
/// (`flt-bench generate 1000000 DIR`). Deterministic: the same count gives the same files.
enum CatalogGenerator {
  static let models:
    [(name: String, processor: String, screen: String, megapixels: Int, zoom: Int?)] = [
      ("iPhone 14", "A15 Bionic", "6.1", 12, nil), ("iPhone 14 Plus", "A15 Bionic", "6.7", 12, nil),
      ("iPhone 14 Pro", "A16 Bionic", "6.1", 48, 3),
      ("iPhone 14 Pro Max", "A16 Bionic", "6.7", 48, 3),
      ("iPhone 13", "A15 Bionic", "6.1", 12, nil), ("iPhone SE", "A15 Bionic", "4.7", 12, nil),
      ("Pixel 7", "Tensor G2", "6.3", 50, nil), ("Pixel 7 Pro", "Tensor G2", "6.7", 50, 5),
      ("Galaxy S23", "Snapdragon 8 Gen 2", "6.1", 50, 3),
      ("Galaxy S23 Ultra", "Snapdragon 8 Gen 2", "6.8", 200, 10),
    ]
  static let colors = [
    "Midnight", "Starlight", "Space Black", "Purple", "Blue", "Red", "Gold", "Silver",
    "Deep Purple", "Obsidian", "Snow", "Lemongrass", "Phantom Black", "Cream", "Green",
  ]
  static let disks = [64, 128, 256, 512, 1024]
  static let tagSets = [
    "[\"5G\"]", "[\"5G\",\"eSIM\"]", "[\"5G\",\"eSIM\",\"MagSafe\"]",
    "[\"5G\",\"eSIM\",\"MagSafe\",\"ProMotion\"]",
  ]

  /// SplitMix64: a small, good generator with no dependencies.
  static func next(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  static func run(count: Int, folder: String) {
    var state: UInt64 = 2022
    var jsonl = ""
    var csv =
      "model,price,screenSize,processor,memory,diskSpace,color,camera.megapixels,camera.zoom,tags,released\n"
    let jsonlPath = folder + "/phones.jsonl"
    let csvPath = folder + "/phones.csv"
    guard let jsonlFile = fopen(jsonlPath, "w"), let csvFile = fopen(csvPath, "w") else {
      print("cannot write to \(folder)")
      return
    }
    defer {
      fclose(jsonlFile)
      fclose(csvFile)
    }
    for index in 0..<count {
      let model = models[Int(next(&state) % UInt64(models.count))]
      let color = colors[Int(next(&state) % UInt64(colors.count))]
      let disk = disks[Int(next(&state) % UInt64(disks.count))]
      let memory = [4, 6, 8, 12][Int(next(&state) % 4)]
      let price = 399 + Int(next(&state) % 1200)
      let tagIndex = Int(next(&state) % UInt64(tagSets.count))
      let day = 1 + Int(next(&state) % 28)
      let released = "2022-09-\(day < 10 ? "0" : "")\(day)"
      let zoomJSON = model.zoom.map { ",\"zoom\":\($0)" } ?? ""
      jsonl += """
        {"model":"\(model.name)","price":\(price),"screenSize":\(model.screen),"processor":"\(model.processor)","memory":\(memory),"diskSpace":\(disk),"color":"\(color)","camera":{"megapixels":\(model.megapixels)\(zoomJSON)},"tags":\(tagSets[tagIndex]),"released":"\(released)"}

        """
      let tags = tagSets[tagIndex].filter { $0 != "[" && $0 != "]" && $0 != "\"" }
        .split(separator: ",").joined(separator: ";")
      csv +=
        "\(model.name),\(price),\(model.screen),\(model.processor),\(memory),\(disk),\(color),\(model.megapixels),\(model.zoom.map(String.init) ?? ""),\(tags),\(released)\n"
      if index % 10_000 == 9_999 || index == count - 1 {
        fputs(jsonl, jsonlFile)
        fputs(csv, csvFile)
        jsonl = ""
        csv = ""
      }
    }
    print("wrote \(count) phones to \(jsonlPath) and \(csvPath)")
  }
}

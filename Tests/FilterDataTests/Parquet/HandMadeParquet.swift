import FilterDSL

@testable import FilterData

/// A Parquet file made by hand, byte by byte, whose every count says what the test wants,
/// true or not: the rows a row group claims, the values a page claims, the size a page says it
/// inflates to, statistics. The hostile-input tests build the files a writer never would.
struct HandMadeParquet {
  /// A page as stored: its header's claims and its body (already compressed when the column
  /// chunk has a codec).
  struct Page {
    /// 0 a data page (v1), 2 a dictionary page.
    var type: Int32 = 0
    var body: [UInt8]
    /// The values the header claims.
    var values: Int32
    /// The size the header says the body inflates to (the body's size when nil).
    var uncompressed: Int32? = nil
    /// The values' encoding: 0 PLAIN, 8 RLE_DICTIONARY.
    var encoding: Int32 = 0
  }

  /// A leaf column and its pages in the one row group.
  struct Leaf {
    /// The path of names from the top (a nested leaf is under an optional group).
    var path: [String]
    var physical: ParquetMetadata.PhysicalType = .int32
    var typeLength: Int32? = nil
    /// The older annotation of the type: 6 DATE, 9 TIMESTAMP_MILLIS.
    var convertedType: Int32? = nil
    var pages: [Page]
    /// The values the chunk's metadata claims (the sum of its pages' when nil).
    var values: Int64? = nil
    var codec: Int32 = 0
    /// The statistics' least and greatest values, as stored.
    var min: [UInt8]? = nil
    var max: [UInt8]? = nil
  }

  var leaves: [Leaf]
  /// The rows each row group claims; each row group holds every leaf's pages.
  var rowGroups: [Int64]

  /// The file's bytes.
  var bytes: [UInt8] {
    var out = Array("PAR1".utf8)
    var groups: [[(start: Int, dictionary: Int?, data: Int, size: Int)]] = []
    for _ in rowGroups {
      var chunks: [(start: Int, dictionary: Int?, data: Int, size: Int)] = []
      for leaf in leaves {
        let start = out.count
        var (dictionary, data): (Int?, Int?) = (nil, nil)
        for page in leaf.pages {
          if page.type == 2 {
            dictionary = dictionary ?? out.count
          } else {
            data = data ?? out.count
          }
          var header = ThriftWriter()
          header.structure { h in
            h.i32(1, page.type)
            h.i32(2, page.uncompressed ?? Int32(page.body.count))
            h.i32(3, Int32(page.body.count))
            if page.type == 2 {
              h.dictionaryPage(Int(page.values))
            } else {
              h.dataPage(Int(page.values), encoding: page.encoding)
            }
          }
          out += header.bytes + page.body
        }
        chunks.append((start, dictionary, data ?? start, out.count - start))
      }
      groups.append(chunks)
    }
    var footer = ThriftWriter()
    footer.structure { file in
      file.i32(1, 1)
      file.listOfElements(2, elements)
      file.i64(3, rowGroups.reduce(0) { $0 &+ $1 })
      file.list(4, Array(zip(rowGroups, groups))) { group, item in
        group.list(1, Array(zip(leaves, item.1))) { chunk, pair in
          let (leaf, place) = pair
          chunk.i64(2, Int64(place.start))
          chunk.structure(3) { meta in
            meta.i32(1, leaf.physical.rawValue)
            meta.list(2, i32: [0, 3, 8])
            meta.list(3, strings: leaf.path)
            meta.i32(4, leaf.codec)
            meta.i64(
              5,
              leaf.values ?? leaf.pages.filter { $0.type != 2 }.reduce(0) { $0 + Int64($1.values) })
            meta.i64(6, Int64(place.size))
            meta.i64(7, Int64(place.size))
            meta.i64(9, Int64(place.data))
            if let dictionary = place.dictionary { meta.i64(11, Int64(dictionary)) }
            if leaf.min != nil || leaf.max != nil {
              meta.structure(12) { statistics in
                statistics.i64(3, 0)
                if let max = leaf.max { statistics.binary(5, max) }
                if let min = leaf.min { statistics.binary(6, min) }
              }
            }
          }
        }
        group.i64(2, Int64(item.1.reduce(0) { $0 + $1.size }))
        group.i64(3, item.0)
      }
      file.string(6, "flt's tests, by hand")
    }
    out += footer.bytes
    out += [UInt8](littleEndian: UInt32(footer.bytes.count))
    out += Array("PAR1".utf8)
    return out
  }

  /// The schema's elements: the root, then each leaf, those of two names under an optional
  /// group of the first (leaves of one group listed together).
  private var elements: [(inout ThriftWriter) -> Void] {
    var elements: [(inout ThriftWriter) -> Void] = []
    var top: [String] = []
    for leaf in leaves where !top.contains(leaf.path[0]) { top.append(leaf.path[0]) }
    elements.append {
      $0.string(4, "schema"); $0.i32(5, Int32(top.count))
    }
    for name in top {
      let under = leaves.filter { $0.path[0] == name }
      if under.count == 1 && under[0].path.count == 1 {
        let leaf = under[0]
        elements.append { e in
          e.i32(1, leaf.physical.rawValue)
          if let length = leaf.typeLength { e.i32(2, length) }
          e.i32(3, 1)
          e.string(4, name)
          if let converted = leaf.convertedType { e.i32(6, converted) }
        }
      } else {
        elements.append {
          $0.i32(3, 1); $0.string(4, name); $0.i32(5, Int32(under.count))
        }
        for leaf in under {
          elements.append { e in
            e.i32(1, leaf.physical.rawValue)
            if let length = leaf.typeLength { e.i32(2, length) }
            e.i32(3, 1)
            e.string(4, leaf.path[1])
          }
        }
      }
    }
    return elements
  }

  // MARK: Pages

  /// A data page v1's body for an optional leaf `depth` groups deep (its highest definition
  /// level `depth + 1`): the definition levels (`defined` says which entries have a value),
  /// then `values`.
  static func body(defined: [Bool], depth: Int = 0, values: [UInt8]) -> [UInt8] {
    let highest = UInt32(depth + 1)
    let width = Int.bitWidth - Int(highest).leadingZeroBitCount
    let levels = RLEHybrid.encode(defined.map { $0 ? highest : highest - 1 }, bitWidth: width)
    return [UInt8](littleEndian: UInt32(levels.count)) + levels + values
  }

  /// `numbers` in PLAIN, four bytes each.
  static func plain(_ numbers: [Int32]) -> [UInt8] {
    numbers.flatMap { [UInt8](littleEndian: $0) }
  }

  /// `numbers` in PLAIN, eight bytes each.
  static func plain(int64 numbers: [Int64]) -> [UInt8] {
    numbers.flatMap { [UInt8](littleEndian: $0) }
  }
}

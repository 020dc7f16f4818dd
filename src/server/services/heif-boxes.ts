// The size of a HEIC/HEIF photo read from its own boxes (ISO/IEC 23008-12 on ISO/IEC 14496-12), before
// anything is decoded. A HEIF file is a tree of boxes: its `meta` box lists the items (coded tiles, a grid
// that assembles them, thumbnails), their properties (`ispe`, the coded size of each image item) and which
// item is shown (`pitm`). A 34 kB file can describe a 9,600 x 12,000 grid of hundreds of tiles, and a
// generic header reader (image-size) took a crop box's negative width as the size and let it through to the
// decoder, which then held gigabytes. So every size is read here, from the boxes the decoder will follow:
// every image item's `ispe`, every grid's and overlay's output size, and every tile of a grid; a file whose
// boxes do not add up (truncated, overlapping, a reference to an item that is not there) is malformed and
// refused. Nothing here decodes: it only reads a few hundred bytes of box headers.

/** What is wrong with a HEIF file, or null when its every image is within the cap. */
export type HeifProblem =
  { kind: 'too-many-pixels'; width: number; height: number } | { kind: 'malformed'; why: string };

/** The sizes found, for callers that report them (the primary image's output size). */
export type HeifSize = { width: number; height: number };

/** More items than any photo has (an iPhone's 48 MP photo is 100 tiles and a few thumbnails). */
const MAX_ITEMS = 4_096;
/** Tiles a grid may have (256 x 256 tiles of a 64 MP image are 1,024). */
const MAX_GRID_TILES = 1_024;
/**
 * The tiles of a grid decode into their own buffers before the grid is assembled, so their total counts
 * too. Tiles round the output up to whole tiles (an iPhone's 4032 x 3024 is 8 x 6 tiles of 512 = 4096 x
 * 3072); twice the cap leaves room for any honest padding.
 */
const TILE_AREA_FACTOR = 2;

class Malformed extends Error {}

type Box = { type: string; start: number; contentStart: number; end: number };

/** The boxes between `start` and `end`, each checked to lie inside its parent. */
function boxesIn(bytes: Buffer, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at < end) {
    if (end - at < 8) throw new Malformed(`a box header is cut off at byte ${at}`);
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (end - at < 16) throw new Malformed(`the large size of box '${type}' is cut off`);
      const large = bytes.readBigUInt64BE(at + 8);
      if (large > BigInt(end - at)) throw new Malformed(`box '${type}' is larger than what holds it`);
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      size = end - at; // to the end of what holds it
    }
    if (size < header) throw new Malformed(`box '${type}' is smaller than its own header`);
    if (at + size > end) throw new Malformed(`box '${type}' runs past the end of what holds it`);
    boxes.push({ type, start: at, contentStart: at + header, end: at + size });
    at += size;
    if (boxes.length > MAX_ITEMS * 4) throw new Malformed('the file has too many boxes');
  }
  return boxes;
}

/** Reads fixed-size fields inside one box, refusing any read past its end. */
class Reader {
  constructor(
    private readonly bytes: Buffer,
    private at: number,
    private readonly end: number,
    private readonly box: string,
  ) {}

  get position(): number {
    return this.at;
  }

  private take(length: number): number {
    if (this.at + length > this.end) throw new Malformed(`box '${this.box}' is cut off`);
    const start = this.at;
    this.at += length;
    return start;
  }

  u8(): number {
    return this.bytes.readUInt8(this.take(1));
  }
  u16(): number {
    return this.bytes.readUInt16BE(this.take(2));
  }
  u32(): number {
    return this.bytes.readUInt32BE(this.take(4));
  }
  /** An unsigned field of 0, 4 or 8 bytes (iloc's offset and length sizes). */
  sized(length: number): number {
    if (length === 0) return 0;
    if (length === 4) return this.u32();
    if (length === 8) {
      const value = this.bytes.readBigUInt64BE(this.take(8));
      if (value > BigInt(Number.MAX_SAFE_INTEGER))
        throw new Malformed(`a field of '${this.box}' is too large`);
      return Number(value);
    }
    throw new Malformed(`box '${this.box}' uses a field size of ${length} bytes`);
  }
  fourCC(): string {
    return this.bytes.toString('latin1', this.take(4), this.at);
  }
  /** A full box's version and flags. */
  versionAndFlags(): { version: number; flags: number } {
    const word = this.u32();
    return { version: word >>> 24, flags: word & 0xffffff };
  }
  skip(length: number): void {
    this.take(length);
  }
}

type Item = { id: number; type: string };
type Location = { method: number; extents: { offset: number; length: number }[] };

type Meta = {
  primary: number | null;
  items: Map<number, Item>;
  /** Per item, the indexes (1-based) of its properties in `properties`. */
  associations: Map<number, number[]>;
  properties: Box[];
  /** Per item, the items its `dimg` reference names (a grid's tiles, in order). */
  derivedFrom: Map<number, number[]>;
  locations: Map<number, Location>;
  idat: Box | null;
};

function readItemInfos(bytes: Buffer, box: Box, items: Map<number, Item>): void {
  const reader = new Reader(bytes, box.contentStart, box.end, 'iinf');
  const { version } = reader.versionAndFlags();
  const count = version === 0 ? reader.u16() : reader.u32();
  if (count > MAX_ITEMS) throw new Malformed(`the file lists ${count} items`);
  const entries = boxesIn(bytes, reader.position, box.end).filter((child) => child.type === 'infe');
  if (entries.length !== count) throw new Malformed(`'iinf' says ${count} items but holds ${entries.length}`);
  for (const entry of entries) {
    const infe = new Reader(bytes, entry.contentStart, entry.end, 'infe');
    const { version: infeVersion } = infe.versionAndFlags();
    if (infeVersion < 2) continue; // versions 0 and 1 describe MPEG-21 items, not images
    const id = infeVersion === 2 ? infe.u16() : infe.u32();
    infe.u16(); // item_protection_index
    const type = infe.fourCC();
    if (items.has(id)) throw new Malformed(`item ${id} is described twice`);
    items.set(id, { id, type });
  }
}

function readLocations(bytes: Buffer, box: Box, locations: Map<number, Location>): void {
  const reader = new Reader(bytes, box.contentStart, box.end, 'iloc');
  const { version } = reader.versionAndFlags();
  if (version > 2) throw new Malformed(`'iloc' version ${version} is unknown`);
  const sizes = reader.u16();
  const offsetSize = sizes >>> 12;
  const lengthSize = (sizes >>> 8) & 0xf;
  const baseOffsetSize = (sizes >>> 4) & 0xf;
  const indexSize = version === 0 ? 0 : sizes & 0xf;
  const count = version < 2 ? reader.u16() : reader.u32();
  if (count > MAX_ITEMS) throw new Malformed(`'iloc' lists ${count} items`);
  for (let index = 0; index < count; index += 1) {
    const id = version < 2 ? reader.u16() : reader.u32();
    const method = version === 0 ? 0 : reader.u16() & 0xf;
    reader.u16(); // data_reference_index
    const base = reader.sized(baseOffsetSize);
    const extentCount = reader.u16();
    if (extentCount > MAX_ITEMS) throw new Malformed(`item ${id} has ${extentCount} pieces`);
    const extents: Location['extents'] = [];
    for (let extent = 0; extent < extentCount; extent += 1) {
      if (indexSize > 0) reader.sized(indexSize);
      const offset = base + reader.sized(offsetSize);
      extents.push({ offset, length: reader.sized(lengthSize) });
    }
    locations.set(id, { method, extents });
  }
}

function readAssociations(bytes: Buffer, box: Box, associations: Map<number, number[]>): void {
  const reader = new Reader(bytes, box.contentStart, box.end, 'ipma');
  const { version, flags } = reader.versionAndFlags();
  const count = reader.u32();
  if (count > MAX_ITEMS) throw new Malformed(`'ipma' lists ${count} items`);
  for (let entry = 0; entry < count; entry += 1) {
    const id = version < 1 ? reader.u16() : reader.u32();
    const associationCount = reader.u8();
    const indexes = associations.get(id) ?? [];
    for (let association = 0; association < associationCount; association += 1) {
      indexes.push(flags & 1 ? reader.u16() & 0x7fff : reader.u8() & 0x7f);
    }
    associations.set(id, indexes);
  }
}

function readReferences(bytes: Buffer, box: Box, derivedFrom: Map<number, number[]>): void {
  const reader = new Reader(bytes, box.contentStart, box.end, 'iref');
  const { version } = reader.versionAndFlags();
  for (const reference of boxesIn(bytes, reader.position, box.end)) {
    const entry = new Reader(bytes, reference.contentStart, reference.end, 'iref');
    const from = version === 0 ? entry.u16() : entry.u32();
    const count = entry.u16();
    if (count > MAX_GRID_TILES * 4) throw new Malformed(`item ${from} refers to ${count} items`);
    const to: number[] = [];
    for (let index = 0; index < count; index += 1) to.push(version === 0 ? entry.u16() : entry.u32());
    if (reference.type === 'dimg') {
      if (derivedFrom.has(from)) throw new Malformed(`item ${from} has two 'dimg' references`);
      derivedFrom.set(from, to);
    }
  }
}

function readMeta(bytes: Buffer, box: Box): Meta {
  const reader = new Reader(bytes, box.contentStart, box.end, 'meta');
  reader.versionAndFlags();
  const meta: Meta = {
    primary: null,
    items: new Map(),
    associations: new Map(),
    properties: [],
    derivedFrom: new Map(),
    locations: new Map(),
    idat: null,
  };
  let handler: string | null = null;
  for (const child of boxesIn(bytes, reader.position, box.end)) {
    switch (child.type) {
      case 'hdlr': {
        const hdlr = new Reader(bytes, child.contentStart, child.end, 'hdlr');
        hdlr.versionAndFlags();
        hdlr.u32(); // pre_defined
        handler = hdlr.fourCC();
        break;
      }
      case 'pitm': {
        const pitm = new Reader(bytes, child.contentStart, child.end, 'pitm');
        const { version } = pitm.versionAndFlags();
        meta.primary = version === 0 ? pitm.u16() : pitm.u32();
        break;
      }
      case 'iinf':
        readItemInfos(bytes, child, meta.items);
        break;
      case 'iloc':
        readLocations(bytes, child, meta.locations);
        break;
      case 'iref':
        readReferences(bytes, child, meta.derivedFrom);
        break;
      case 'idat':
        meta.idat = child;
        break;
      case 'iprp':
        for (const part of boxesIn(bytes, child.contentStart, child.end)) {
          if (part.type === 'ipco') meta.properties.push(...boxesIn(bytes, part.contentStart, part.end));
          else if (part.type === 'ipma') readAssociations(bytes, part, meta.associations);
        }
        break;
      default:
        break;
    }
  }
  if (handler !== 'pict') throw new Malformed(`the 'meta' box is not a picture's (handler '${handler}')`);
  return meta;
}

/** The payload of an item whose data is small and structural (a grid's or overlay's description). */
function itemData(bytes: Buffer, meta: Meta, id: number): Buffer {
  const location = meta.locations.get(id);
  if (!location) throw new Malformed(`item ${id} has no location`);
  if (location.method !== 0 && location.method !== 1)
    throw new Malformed(`item ${id} is stored in a way that is not supported`);
  const container = location.method === 1 ? meta.idat : null;
  if (location.method === 1 && !container) throw new Malformed(`item ${id} is in an 'idat' that is missing`);
  const [start, end] = container ? [container.contentStart, container.end] : [0, bytes.length];
  const pieces = location.extents.map(({ offset, length }) => {
    const from = start + offset;
    const to = length === 0 ? end : from + length;
    if (from < start || to > end || to < from) throw new Malformed(`item ${id}'s data lies outside the file`);
    return bytes.subarray(from, to);
  });
  return Buffer.concat(pieces);
}

/** A grid's or an overlay's output size, from its description (ISO/IEC 23008-12, 6.6.2.3 and 6.6.2.2). */
function derivedOutput(data: Buffer, type: 'grid' | 'iovl'): HeifSize & { tiles?: number } {
  const reader = new Reader(data, 0, data.length, type);
  const version = reader.u8();
  if (version !== 0) throw new Malformed(`a '${type}' item of version ${version} is unknown`);
  const flags = reader.u8();
  const wide = (flags & 1) === 1;
  if (type === 'grid') {
    const rows = reader.u8() + 1;
    const columns = reader.u8() + 1;
    const width = wide ? reader.u32() : reader.u16();
    const height = wide ? reader.u32() : reader.u16();
    return { width, height, tiles: rows * columns };
  }
  reader.skip(8); // canvas_fill_value
  const width = wide ? reader.u32() : reader.u16();
  const height = wide ? reader.u32() : reader.u16();
  return { width, height };
}

/** The `ispe` (coded size) of an image item, if it has one. */
function spatialExtent(bytes: Buffer, meta: Meta, id: number): HeifSize | null {
  for (const index of meta.associations.get(id) ?? []) {
    if (index === 0) continue; // "no property"
    const property = meta.properties[index - 1];
    if (!property) throw new Malformed(`item ${id} names property ${index}, which is not there`);
    if (property.type !== 'ispe') continue;
    const reader = new Reader(bytes, property.contentStart, property.end, 'ispe');
    reader.versionAndFlags();
    return { width: reader.u32(), height: reader.u32() };
  }
  return null;
}

/** The item types that are coded pictures a decoder turns into pixels. */
const CODED_IMAGE_TYPES = new Set(['hvc1', 'av01', 'jpeg', 'avc1', 'unci', 'j2k1', 'vvc1']);

function checkArea(size: HeifSize, maxPixels: number, what: string): HeifProblem | null {
  if (size.width <= 0 || size.height <= 0) throw new Malformed(`${what} has no width or height`);
  if (size.width * size.height > maxPixels)
    return { kind: 'too-many-pixels', width: size.width, height: size.height };
  return null;
}

/**
 * Why this HEIF file may not be decoded: an image item (the shown one or any other: a decoder may be led to
 * any of them), a grid's output or an overlay's canvas over `maxPixels`, a grid whose tiles together are far
 * larger, or boxes that are malformed. Null when every image is within the cap.
 */
export function heifProblem(bytes: Buffer, maxPixels: number): HeifProblem | null {
  try {
    return problemOf(bytes, maxPixels);
  } catch (error) {
    if (error instanceof Malformed) return { kind: 'malformed', why: error.message };
    if (error instanceof RangeError) return { kind: 'malformed', why: 'a box is cut off' };
    throw error;
  }
}

function problemOf(bytes: Buffer, maxPixels: number): HeifProblem | null {
  const top = boxesIn(bytes, 0, bytes.length);
  if (top[0]?.type !== 'ftyp') throw new Malformed("the file does not start with an 'ftyp' box");
  const metas = top.filter((box) => box.type === 'meta');
  if (metas.length !== 1) throw new Malformed(`the file has ${metas.length} 'meta' boxes, not one`);
  const meta = readMeta(bytes, metas[0] as Box);
  if (meta.primary === null) throw new Malformed('the file names no primary image');
  if (!meta.items.has(meta.primary))
    throw new Malformed(`the primary image ${meta.primary} is not described`);
  if (meta.items.size > MAX_ITEMS) throw new Malformed('the file has too many items');
  for (const item of meta.items.values()) {
    const extent = spatialExtent(bytes, meta, item.id);
    if (item.type === 'grid' || item.type === 'iovl') {
      const output = derivedOutput(itemData(bytes, meta, item.id), item.type);
      const problem = checkArea(output, maxPixels, `${item.type} ${item.id}`);
      if (problem) return problem;
      if (extent) {
        const extentProblem = checkArea(extent, maxPixels, `${item.type} ${item.id}`);
        if (extentProblem) return extentProblem;
      }
      const sources = meta.derivedFrom.get(item.id) ?? [];
      if (sources.length === 0) throw new Malformed(`${item.type} ${item.id} is made of nothing`);
      if (output.tiles !== undefined && sources.length !== output.tiles)
        throw new Malformed(`grid ${item.id} has ${output.tiles} cells but ${sources.length} tiles`);
      if (sources.length > MAX_GRID_TILES) throw new Malformed(`${item.type} ${item.id} has too many tiles`);
      let sourceArea = 0;
      for (const source of sources) {
        const tile = meta.items.get(source);
        if (!tile) throw new Malformed(`${item.type} ${item.id} uses item ${source}, which is not there`);
        if (tile.type === 'grid' || tile.type === 'iovl')
          throw new Malformed(`${item.type} ${item.id} is made of another derived image`);
        const size = spatialExtent(bytes, meta, source);
        if (!size) throw new Malformed(`tile ${source} has no size ('ispe')`);
        const tileProblem = checkArea(size, maxPixels, `tile ${source}`);
        if (tileProblem) return tileProblem;
        sourceArea += size.width * size.height;
      }
      if (sourceArea > maxPixels * TILE_AREA_FACTOR)
        return { kind: 'too-many-pixels', width: output.width, height: output.height };
      continue;
    }
    if (CODED_IMAGE_TYPES.has(item.type)) {
      if (!extent) throw new Malformed(`image ${item.id} has no size ('ispe')`);
      const problem = checkArea(extent, maxPixels, `image ${item.id}`);
      if (problem) return problem;
    }
  }
  const primary = meta.items.get(meta.primary) as Item;
  if (!CODED_IMAGE_TYPES.has(primary.type) && primary.type !== 'grid' && primary.type !== 'iovl')
    throw new Malformed(`the primary item is a '${primary.type}', not an image`);
  return null;
}

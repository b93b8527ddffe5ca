import { emptyNumbering, type NumberingDefinitions, type NumberingLevel } from './numbering.ts';
import { parseXml } from './xml.ts';

// The parts of a .docx besides its body (docx.ts): styles.xml (heading levels through style
// inheritance) and numbering.xml (list labels), and the WordprocessingML name helpers both use.

export const wordNamespaces = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);

// ---------------------------------------------------------------------------------------------
// Styles and numbering

export interface StyleInfo {
  name?: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
}

export interface ResolvedStyle {
  /** Heading level 1..9, or undefined for body text. */
  level?: number;
  numId?: string;
  ilvl?: number;
}

export function parseStyles(xml: string): Map<string, StyleInfo> {
  const styles = new Map<string, StyleInfo>();
  let w = 'w';
  let current: StyleInfo | undefined;
  let skipDepth = 0;
  parseXml(xml, {
    open(name, attributes, selfClosing) {
      if (styles.size === 0 && current === undefined) w = wordPrefix(attributes, w);
      if (skipDepth > 0) {
        if (!selfClosing) skipDepth++;
        return;
      }
      if (name === `${w}:style`) {
        if (!selfClosing && attributes[`${w}:type`] === 'paragraph' && attributes[`${w}:styleId`]) {
          current = {};
          styles.set(attributes[`${w}:styleId`]!, current);
        }
        return;
      }
      if (!current) return;
      const val = attributes[`${w}:val`];
      switch (name) {
        case `${w}:pPrChange`:
        case `${w}:rPr`:
          if (!selfClosing) skipDepth = 1;
          break;
        case `${w}:name`:
          current.name = val;
          break;
        case `${w}:basedOn`:
          current.basedOn = val;
          break;
        case `${w}:outlineLvl`:
          current.outlineLevel = toInt(val);
          break;
        case `${w}:numId`:
          current.numId = val;
          break;
        case `${w}:ilvl`:
          current.ilvl = toInt(val);
          break;
      }
    },
    close(name) {
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      if (name === `${w}:style`) current = undefined;
    },
    text() {},
  });
  return styles;
}

const headingNamePatterns = [/^heading\s*([1-9])$/i, /^标题\s*([1-9])$/];

export function resolveStyles(styles: Map<string, StyleInfo>): Map<string, ResolvedStyle> {
  const resolved = new Map<string, ResolvedStyle>();
  const resolve = (id: string, depth: number): ResolvedStyle => {
    const cached = resolved.get(id);
    if (cached) return cached;
    const style = styles.get(id);
    const base = style?.basedOn && depth < 20 ? resolve(style.basedOn, depth + 1) : {};
    let level = base.level;
    if (style?.name) {
      for (const pattern of headingNamePatterns) {
        const match = pattern.exec(style.name.trim());
        if (match) level = Number(match[1]);
      }
    }
    if (style?.outlineLevel !== undefined) level = outlineToLevel(style.outlineLevel);
    const result: ResolvedStyle = {
      level,
      numId: style?.numId ?? base.numId,
      ilvl: style?.ilvl ?? (style?.numId !== undefined ? undefined : base.ilvl),
    };
    resolved.set(id, result);
    return result;
  };
  for (const id of styles.keys()) resolve(id, 0);
  return resolved;
}

export function parseNumbering(xml: string): NumberingDefinitions {
  const definitions = emptyNumbering();
  let w = 'w';
  let first = true;
  let abstractLevels: Map<number, NumberingLevel> | undefined;
  let instance:
    | { abstractId: string; startOverrides: Map<number, number>; levelOverrides: Map<number, NumberingLevel> }
    | undefined;
  let overrideIlvl: number | undefined;
  let level: NumberingLevel | undefined;
  let levelIlvl = 0;
  let skipDepth = 0;
  parseXml(xml, {
    open(name, attributes, selfClosing) {
      if (first) {
        w = wordPrefix(attributes, w);
        first = false;
      }
      if (skipDepth > 0) {
        if (!selfClosing) skipDepth++;
        return;
      }
      const val = attributes[`${w}:val`];
      switch (name) {
        case `${w}:abstractNum`:
          if (selfClosing) break;
          abstractLevels = new Map();
          definitions.abstract.set(attributes[`${w}:abstractNumId`] ?? '', abstractLevels);
          break;
        case `${w}:num`:
          if (selfClosing) break;
          instance = { abstractId: '', startOverrides: new Map(), levelOverrides: new Map() };
          definitions.instances.set(attributes[`${w}:numId`] ?? '', instance);
          break;
        case `${w}:abstractNumId`:
          if (instance) instance.abstractId = val ?? '';
          break;
        case `${w}:lvlOverride`:
          if (selfClosing) break;
          overrideIlvl = toInt(attributes[`${w}:ilvl`]) ?? 0;
          break;
        case `${w}:startOverride`:
          if (instance && overrideIlvl !== undefined)
            instance.startOverrides.set(overrideIlvl, toInt(val) ?? 1);
          break;
        case `${w}:lvl`:
          if (selfClosing) break;
          levelIlvl = toInt(attributes[`${w}:ilvl`]) ?? 0;
          level = { start: 1, format: 'decimal', text: '', suffix: 'tab', isLegal: false };
          if (abstractLevels && !instance) abstractLevels.set(levelIlvl, level);
          else if (instance && overrideIlvl !== undefined) instance.levelOverrides.set(overrideIlvl, level);
          break;
        case `${w}:pPr`:
        case `${w}:rPr`:
          if (!selfClosing) skipDepth = 1;
          break;
      }
      if (!level) return;
      switch (name) {
        case `${w}:start`:
          level.start = toInt(val) ?? 1;
          break;
        case `${w}:numFmt`:
          level.format = val ?? 'decimal';
          break;
        case `${w}:lvlText`:
          level.text = val ?? '';
          break;
        case `${w}:suff`:
          if (val === 'space' || val === 'nothing' || val === 'tab') level.suffix = val;
          break;
        case `${w}:isLgl`:
          level.isLegal = val !== '0' && val !== 'false';
          break;
        case `${w}:pStyle`:
          level.styleId = val;
          break;
      }
    },
    close(name) {
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      if (name === `${w}:lvl`) level = undefined;
      else if (name === `${w}:abstractNum`) abstractLevels = undefined;
      else if (name === `${w}:num`) instance = undefined;
      else if (name === `${w}:lvlOverride`) overrideIlvl = undefined;
    },
    text() {},
  });
  return definitions;
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function outlineToLevel(outline: number | undefined): number | undefined {
  // w:outlineLvl 0..8 are heading levels 1..9; 9 means body text.
  return outline !== undefined && outline >= 0 && outline <= 8 ? outline + 1 : undefined;
}

/** Used when styles.xml is missing: Word's built-in ids 'Heading1' and '标题1'. */
export function headingLevelFromStyleId(styleId: string): number | undefined {
  const match = /^(?:heading|标题)\s*([1-9])$/i.exec(styleId);
  return match ? Number(match[1]) : undefined;
}

export function wordPrefix(attributes: Readonly<Record<string, string>>, fallback: string): string {
  for (const namespace of wordNamespaces) {
    const prefix = prefixFor(attributes, namespace);
    if (prefix !== undefined) return prefix;
  }
  return fallback;
}

export function prefixFor(
  attributes: Readonly<Record<string, string>>,
  namespace: string,
): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === namespace && name.startsWith('xmlns:')) return name.slice(6);
  }
  return undefined;
}

export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

export function toInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) ? number : undefined;
}

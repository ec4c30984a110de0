/**
 * The eval's shop: a few hundred offers written the way merchants list them (mixed-case titles,
 * plural or singular item words, sizes as "EU 42", "42", "Medium", "8Y"), generated
 * deterministically so every run sees the same catalogue. It is not shaped after the corpus:
 * every kind comes in several colours, prices and sizes; some combinations simply don't exist.
 */
import type { CreateOfferRequest, Season, WardrobeCategory } from '@hs/contracts';

type Line = {
  title: string[];
  category: WardrobeCategory;
  price: [number, number];
  season?: Season[];
  sizes: 'letter' | 'shoe' | 'waist' | 'one';
};

const LINES: Line[] = [
  { title: ['Sneakers', 'Trainers', 'Running Sneaker'], category: 'SHOES', price: [35, 140], sizes: 'shoe' },
  { title: ['Boots', 'Chelsea Boot', 'Rain Boots'], category: 'SHOES', price: [45, 180], sizes: 'shoe' },
  {
    title: ['Sandals', 'Slide Sandal'],
    category: 'SHOES',
    price: [18, 70],
    season: ['SUMMER'],
    sizes: 'shoe',
  },
  { title: ['Heels', 'Block Heel Pumps'], category: 'SHOES', price: [40, 150], sizes: 'shoe' },
  { title: ['Loafers', 'Ballet Flats'], category: 'SHOES', price: [35, 110], sizes: 'shoe' },
  {
    title: ['Jacket', 'Denim Jacket', 'Bomber Jacket'],
    category: 'OUTERWEAR',
    price: [40, 160],
    season: ['SPRING', 'FALL'],
    sizes: 'letter',
  },
  {
    title: ['Coat', 'Wool Coat', 'Trench Coat'],
    category: 'OUTERWEAR',
    price: [70, 260],
    season: ['FALL', 'WINTER'],
    sizes: 'letter',
  },
  {
    title: ['Puffer Jacket', 'Puffer'],
    category: 'OUTERWEAR',
    price: [60, 220],
    season: ['WINTER'],
    sizes: 'letter',
  },
  { title: ['Parka'], category: 'OUTERWEAR', price: [90, 280], season: ['WINTER'], sizes: 'letter' },
  {
    title: ['Raincoat', 'Rain Jacket'],
    category: 'OUTERWEAR',
    price: [35, 120],
    season: ['SPRING', 'FALL'],
    sizes: 'letter',
  },
  { title: ['Blazer'], category: 'OUTERWEAR', price: [60, 200], sizes: 'letter' },
  { title: ['Fleece', 'Windbreaker'], category: 'OUTERWEAR', price: [30, 90], sizes: 'letter' },
  { title: ['T-Shirt', 'Tee', 'Graphic T-Shirts'], category: 'TOP', price: [8, 35], sizes: 'letter' },
  { title: ['Hoodie', 'Zip Hoodie'], category: 'TOP', price: [20, 80], sizes: 'letter' },
  {
    title: ['Sweater', 'Knit Sweater'],
    category: 'TOP',
    price: [25, 110],
    season: ['FALL', 'WINTER'],
    sizes: 'letter',
  },
  { title: ['Cardigan'], category: 'TOP', price: [25, 90], sizes: 'letter' },
  { title: ['Shirt', 'Oxford Shirt', 'Blouse'], category: 'TOP', price: [18, 75], sizes: 'letter' },
  {
    title: ['Polo Shirt', 'Polo'],
    category: 'TOP',
    price: [15, 60],
    season: ['SPRING', 'SUMMER'],
    sizes: 'letter',
  },
  { title: ['Tank Top', 'Sweatshirt'], category: 'TOP', price: [10, 55], sizes: 'letter' },
  { title: ['Top', 'Wrap Top'], category: 'TOP', price: [12, 60], sizes: 'letter' },
  { title: ['Jeans', 'Slim Jeans'], category: 'BOTTOM', price: [25, 110], sizes: 'waist' },
  { title: ['Trousers', 'Chinos'], category: 'BOTTOM', price: [25, 100], sizes: 'waist' },
  { title: ['Joggers', 'Track Pants'], category: 'BOTTOM', price: [15, 65], sizes: 'letter' },
  { title: ['Leggings'], category: 'BOTTOM', price: [12, 60], sizes: 'letter' },
  { title: ['Shorts'], category: 'BOTTOM', price: [12, 50], season: ['SUMMER'], sizes: 'letter' },
  { title: ['Skirt', 'Midi Skirt'], category: 'BOTTOM', price: [18, 80], sizes: 'letter' },
  { title: ['Dress', 'Midi Dress', 'Wrap Dress'], category: 'DRESS', price: [30, 180], sizes: 'letter' },
  { title: ['Sundress'], category: 'DRESS', price: [22, 75], season: ['SUMMER'], sizes: 'letter' },
  { title: ['Jumpsuit'], category: 'DRESS', price: [35, 110], sizes: 'letter' },
  { title: ['Beanie'], category: 'ACCESSORY', price: [8, 35], season: ['WINTER'], sizes: 'one' },
  {
    title: ['Cap', 'Baseball Cap', 'Bucket Hat', 'Sun Hat'],
    category: 'ACCESSORY',
    price: [10, 40],
    sizes: 'one',
  },
  { title: ['Scarf'], category: 'ACCESSORY', price: [12, 60], sizes: 'one' },
  { title: ['Gloves', 'Belt', 'Sunglasses'], category: 'ACCESSORY', price: [10, 70], sizes: 'one' },
  { title: ['Tote Bag', 'Tote'], category: 'BAG', price: [20, 90], sizes: 'one' },
  { title: ['Crossbody Bag', 'Handbag', 'Clutch'], category: 'BAG', price: [25, 160], sizes: 'one' },
  { title: ['Backpack', 'School Backpack'], category: 'BAG', price: [25, 95], sizes: 'one' },
  {
    title: ['Swimsuit', 'Swim Trunks'],
    category: 'OTHER',
    price: [15, 60],
    season: ['SUMMER'],
    sizes: 'letter',
  },
  { title: ['Pajamas', 'Pyjama Set'], category: 'OTHER', price: [15, 50], sizes: 'letter' },
];

const COLOURS = [
  'black',
  'white',
  'navy',
  'grey',
  'blue',
  'red',
  'green',
  'beige',
  'brown',
  'pink',
  'cream',
  'burgundy',
  'olive',
  'yellow',
  'purple',
];
const BRANDS = [
  'Nike',
  'Adidas',
  'Zara',
  'Shein',
  'Uniqlo',
  'Acme',
  'Northwind',
  'Little Ones',
  'Puma',
  'Levis',
];
const ADULT_LETTERS = [
  ['S', 'M', 'L'],
  ['Medium', 'Large', 'X-Large'],
  ['XS', 'S', 'M'],
  ['M', 'L', 'XL', 'XXL'],
];
const SHOES = [
  ['EU 38', 'EU 39', 'EU 40'],
  ['41', '42', '43'],
  ['US 9', 'US 10', 'US 11'],
  ['EU 42', 'EU 43', 'EU 44'],
  ['UK 6', 'UK 7'],
  ['36', '37', '38'],
];
const KIDS = [
  ['4Y', '5Y', '6Y'],
  ['Kids 7', 'Kids 8', 'Kids 9'],
  ['Age 10', 'Age 11', 'Age 12'],
  ['2Y', '3Y'],
  ['13Y', '14Y'],
  ['Kids 11', 'Kids 12', 'Kids 13'],
];
const WAISTS = [
  ['28', '30', '32'],
  ['32', '34', '36'],
  ['W30', 'W32'],
];

/** Six offers per line: colours, prices, brands and sizes rotate so no two lines look alike. */
export function catalogue(): CreateOfferRequest[] {
  const out: CreateOfferRequest[] = [];
  let n = 0;
  for (const line of LINES) {
    for (let i = 0; i < 6; i++, n++) {
      const colour = COLOURS[(n * 7 + i) % COLOURS.length]!;
      const second = i % 3 === 0 ? [COLOURS[(n * 3 + 5) % COLOURS.length]!] : [];
      const [lo, hi] = line.price;
      const price = Math.round(lo + ((hi - lo) * ((n * 37 + i * 11) % 100)) / 100) + 0.99;
      const kids = i === 5 || (i === 4 && n % 2 === 0);
      const word = line.title[i % line.title.length]!;
      const sizes =
        line.sizes === 'one'
          ? ['One Size']
          : kids
            ? KIDS[n % KIDS.length]!
            : line.sizes === 'shoe'
              ? SHOES[n % SHOES.length]!
              : line.sizes === 'waist'
                ? WAISTS[n % WAISTS.length]!
                : ADULT_LETTERS[n % ADULT_LETTERS.length]!;
      const brand = kids ? 'Little Ones' : BRANDS[(n * 3 + i) % BRANDS.length]!;
      out.push({
        title: `${kids ? 'Kids ' : ''}${colour[0]!.toUpperCase()}${colour.slice(1)} ${word}`,
        brand,
        url: `https://shop.example-store.com/p/${n}`,
        price,
        currency: 'USD',
        category: line.category,
        colors: [colour, ...second.filter((c) => c !== colour)],
        season: i === 2 ? [] : (line.season ?? []),
        sizes,
      });
    }
  }
  return out;
}

/** What the household owns: the pieces wardrobe questions and pairings refer to. */
export const WARDROBE = [
  {
    category: 'BOTTOM',
    brand: 'Levis',
    colors: ['white'],
    season: ['SPRING', 'SUMMER'],
    tags: ['white jeans'],
  },
  { category: 'BOTTOM', brand: 'Acme', colors: ['navy'], season: [], tags: ['navy chinos'] },
  { category: 'BOTTOM', brand: 'Gap', colors: ['black'], season: [], tags: ['black jeans'] },
  { category: 'OUTERWEAR', brand: 'Zara', colors: ['black'], season: [], tags: ['black blazer'] },
  { category: 'TOP', brand: 'Uniqlo', colors: ['grey'], season: [], tags: ['grey hoodie'] },
  { category: 'TOP', brand: 'Acme', colors: ['white'], season: ['SUMMER'], tags: ['white tee'] },
  { category: 'SHOES', brand: 'Nike', colors: ['white'], season: [], tags: ['white sneakers'] },
  {
    category: 'SHOES',
    brand: 'Northwind',
    colors: ['brown'],
    season: ['FALL', 'WINTER'],
    tags: ['brown boots'],
  },
  { category: 'DRESS', brand: 'Zara', colors: ['navy'], season: ['SUMMER'], tags: ['navy dress'] },
  { category: 'BOTTOM', brand: 'Acme', colors: ['green'], season: [], tags: ['green skirt'] },
] as const;

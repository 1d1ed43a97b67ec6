// Deterministic seed data for the orders-api database: the same rows on every start and machine.

const ADJECTIVES = ['Classic', 'Compact', 'Deluxe', 'Eco', 'Heavy', 'Light', 'Modular', 'Premium', 'Rugged', 'Smart'];
const NOUNS = ['Bottle', 'Cable', 'Desk Lamp', 'Headset', 'Keyboard', 'Mug', 'Notebook', 'Backpack', 'Speaker', 'Tripod'];
const CATEGORIES = ['accessories', 'audio', 'office', 'outdoor', 'kitchen'];

/** Small seeded generator (mulberry32), so the dataset never depends on Math.random. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The catalogue rows in id order; count and seed fix the size of /api/order/all-items. */
export function seedItems(count = 44, seed = 4) {
  const random = mulberry32(seed);
  const items = [];
  for (let id = 1; id <= count; id += 1) {
    const name = `${ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]} ${NOUNS[Math.floor(random() * NOUNS.length)]}`;
    items.push({
      id,
      sku: `SKU-${String(1000 + id * 7).padStart(5, '0')}`,
      name,
      category: CATEGORIES[Math.floor(random() * CATEGORIES.length)],
      price: Math.round(199 + random() * 9800) / 100,
      quantity: Math.floor(random() * 500),
      status: random() > 0.15 ? 'active' : 'backorder',
    });
  }
  return items;
}

/**
 * The order lines behind each item's stock: `count` lines spread over items 1..items, 1-5 units each. The items route
 * sums them per item on every uncached request, which is the database work the cache saves.
 */
export function seedOrderLines(count = 1000, items = 44, seed = 40) {
  const random = mulberry32(seed);
  const lines = [];
  for (let id = 1; id <= count; id += 1) {
    lines.push({ id, itemId: 1 + Math.floor(random() * items), qty: 1 + Math.floor(random() * 5), unitPrice: Math.round(199 + random() * 9800) / 100 });
  }
  return lines;
}

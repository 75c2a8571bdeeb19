// The examples' one output function: a JSON line [label, value], bigints as strings, an Error as
// its class, code and first line (what a library's caller branches on).
export function print(label, value) {
  console.log(JSON.stringify([label, value], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}
export function printError(label, e) {
  print(label, { name: e?.constructor?.name, code: e?.code, type: e?.type, message: String(e?.message).split('\n')[0] });
}

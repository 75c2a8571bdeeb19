// The examples' one output function: a JSON line [label, value], bigints as strings, an Error as
// its class, code and first line (what a library's caller branches on). `line` and `errorShape`
// are the same without the printing (the browser example collects the lines itself).
export function line(label, value) {
  return JSON.stringify([label, value], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}
export function errorShape(e) {
  return { name: e?.constructor?.name, code: e?.code, type: e?.type, message: String(e?.message).split('\n')[0] };
}
export function print(label, value) {
  console.log(line(label, value));
}
export function printError(label, e) {
  print(label, errorShape(e));
}

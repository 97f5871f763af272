// Seat names as people read them. A bot's seat keeps its machine name in the records and
// the protocol ("heuristic-bot-2": the level and the seat from 1, which ratings read back);
// every page shows it in the reader's language instead: 机器人·稳健 2 / "Bot (steady) 2", as
// erqishi.records.names.seat_label() does. The levels' words come from the server
// (GET /api/presets: bot_words); a person's name can never look like a bot's (the server
// refuses such names), so the pattern is unambiguous.
import { t, getLang } from "./i18n.js";

let WORDS = {}; // level -> {name: [zh, en], about: [zh, en]}

const BOT_SEAT = /^([a-z][a-z-]*?)-bot-([1-9][0-9]?)$/;

const pick = (pair) => (Array.isArray(pair) && pair.length === 2 ? String(pair[getLang() === "en" ? 1 : 0]) : null);

/** Keep the bot levels' words the server sent (GET /api/presets: bot_words). */
export function setBotWords(words) {
  WORDS = words && typeof words === "object" ? words : {};
}

/** A bot level's kind of play in words ("稳健" / "steady"); the level's code if unknown. */
export function botKind(level) {
  const w = WORDS[level];
  return pick(w && w.name) || (t(`bot_${level}`) !== `bot_${level}` ? t(`bot_${level}`) : String(level));
}

/** How a bot level plays, in words (or ""). */
export function botAbout(level) {
  const w = WORDS[level];
  return pick(w && w.about) || "";
}

/** The level and number of a bot seat's machine name, or null. */
export function botSeat(name) {
  const m = typeof name === "string" ? BOT_SEAT.exec(name) : null;
  return m ? { level: m[1], n: Number(m[2]) } : null;
}

/** A seat's name as shown: a bot's as 机器人·稳健 2 / "Bot (steady) 2", any other as it is. */
export function seatLabel(name) {
  const bot = botSeat(name);
  if (!bot) return name;
  return t("bot_name", { kind: botKind(bot.level), n: bot.n });
}

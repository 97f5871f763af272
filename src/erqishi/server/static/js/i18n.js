// Chinese (default) and English labels, in the words of the terminal game
// (src/erqishi/tui/i18n.py). Card faces stay Chinese in both languages. The choice is
// kept in localStorage.
import { store } from "./dom.js";

const KEY = "erqishi.lang";
let lang = store.get(KEY) === "en" ? "en" : "zh";
const listeners = new Set();

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = next === "en" ? "en" : "zh";
  store.set(KEY, lang);
  for (const f of listeners) f(lang);
}

export function onLang(f) {
  listeners.add(f);
}

/** The label `key` in the current language with {name} placeholders filled; the key itself if unknown. */
export function t(key, params = {}) {
  const entry = TEXT[key];
  if (!entry) return key;
  const text = lang === "en" ? entry[1] : entry[0];
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m === "{s}" ? "" : m));
}

const TEXT = {
  title: ["贰柒拾", "Erqishi (2-7-10)"],
  brand: ["贰柒拾", "Erqishi"],
  tagline: ["乐山贰柒拾，80 张纸牌。开一个房间，把链接发给朋友，空位可以让机器人坐。", "The 80-card paper card game of Leshan. Open a room, send the link to friends, let bots take empty seats."],
  history: ["历史对局", "History"],
  history_link: ["查看历史对局", "Past matches"],
  lang_toggle: ["EN", "中文"],
  lang_toggle_title: ["Switch to English", "切换到中文"],
  colon: ["：", ": "],
  none: ["无", "none"],
  loading: ["加载中……", "Loading…"],
  more: ["更多", "More"],

  // connection
  conn_connecting: ["连接中……", "Connecting…"],
  conn_open: ["在线", "Online"],
  conn_reconnecting: ["重新连接中……", "Reconnecting…"],
  conn_idle: ["", ""],

  // lobby
  new_room: ["开房间", "New room"],
  preset: ["规则", "Rules"],
  match_quan: ["圈数", "Rounds (圈)"],
  quan_n: ["{n} 圈", "{n} 圈 (rounds)"],
  quan_short: ["圈{n}", "round {n}"],
  bot_level: ["机器人", "Bots"],
  bot_random: ["随机", "random"],
  bot_heuristic: ["普通（启发式）", "heuristic"],
  bot_search: ["高手（搜索）", "search (strong)"],
  players: ["人数", "Players"],
  players_default: ["按规则", "as the rules say"],
  players_n: ["{n} 人", "{n} players"],
  create_room: ["开房间", "Create room"],
  join_room: ["进房间", "Join a room"],
  room_code: ["房间号", "Room code"],
  code_placeholder: ["例如 K7M2QX", "e.g. K7M2QX"],
  join_by_code: ["进入", "Go"],
  err_create: ["开房间失败：{message}", "Could not create the room: {message}"],
  err_no_code: ["服务器没有给房间号", "the server sent no room code"],
  err_enter_code: ["请输入房间号", "Enter a room code"],

  // room
  room: ["房间", "Room"],
  share_link: ["房间链接", "Room link"],
  copy: ["复制链接", "Copy link"],
  copied: ["链接已复制", "Link copied"],
  status_lobby: ["等人中", "waiting for players"],
  status_playing: ["游戏中", "playing"],
  status_between: ["一手结束", "between hands"],
  status_finished: ["比赛结束", "finished"],
  spectators: ["观众 {n} 人", "{n} watching"],
  your_name: ["你的名字", "Your name"],
  name_placeholder: ["1–24 个字", "1-24 characters"],
  join: ["加入并入座", "Join and sit"],
  spectate: ["观战", "Watch"],
  err_enter_name: ["请先输入名字", "Enter a name first"],
  err_offline: ["未连接，稍后再试", "Not connected, try again in a moment"],
  connecting: ["正在连接……", "Connecting…"],
  room_missing: ["房间 {code} 不存在。", "There is no room {code}."],
  back_home: ["回首页", "Home"],
  seats: ["座位", "Seats"],
  empty_seat: ["空位", "empty"],
  sit: ["坐这里", "Sit here"],
  stand: ["离座", "Leave seat"],
  unbot: ["请走机器人", "Remove bot"],
  fill_bots: ["空位补机器人", "Fill empty seats with bots"],
  start: ["开始", "Start"],
  hint_sit: ["坐下才能开始。", "Take a seat to play."],
  hint_fill: ["等朋友来，或让机器人补空位。", "Wait for friends, or fill the empty seats with bots."],
  hint_start: ["人齐了，可以开始。", "Every seat is taken: you can start."],
  rename: ["改名", "Rename"],
  bot: ["机器人", "bot"],
  offline: ["离线", "offline"],
  away: ["托管", "bot plays"],
  sits_out: ["本手轮空", "sits this hand out"],
  tianhu_button: ["天胡", "Win 天胡"],
  you: ["你", "You"],
  xiajia: ["下家", "next (下家)"],
  shangjia: ["上家", "previous (上家)"],
  seat_n: ["座{n}", "seat {n}"],
  dealer: ["庄家", "dealer"],
  dealer_mark: ["庄", "dealer (庄)"],
  turn_mark: ["轮到", "to play"],
  turn_response: ["出牌者", "played it"],

  // errors from the server
  error_bad_json: ["消息格式错误", "Malformed message"],
  error_bad_message: ["消息无效", "Invalid message"],
  error_bad_version: ["协议版本不对", "Wrong protocol version"],
  error_too_big: ["消息太长", "Message too long"],
  error_rate_limited: ["操作太快了，请慢一点", "Too fast: slow down"],
  error_not_joined: ["还没有加入房间", "You have not joined the room"],
  error_not_seated: ["你没有座位", "You have no seat"],
  error_not_your_turn: ["还没轮到你", "It is not your turn"],
  error_stale: ["牌局已经变了，请重新选择", "The table moved on: choose again"],
  error_illegal: ["这一步不合规则", "That move is not allowed"],
  error_bad_state: ["现在不能这样做", "You cannot do that now"],
  error_seat_taken: ["这个座位已经有人了", "That seat is taken"],
  error_generic: ["出错了", "Something went wrong"],
  error_render: ["无法显示牌桌", "Could not draw the table"],

  // table
  waiting_game: ["等待牌局……", "Waiting for the game…"],
  status_quan: ["圈{quan}/{of}", "Round {quan}/{of}"],
  status_quan_only: ["圈{quan}", "Round {quan}"],
  status_hand: ["第 {n} 手", "hand {n}"],
  status_dealer: ["庄家：{who}", "Dealer: {who}"],
  status_turn: ["轮到：{who}", "Turn: {who}"],
  status_response: ["等待回应", "Waiting for responses"],
  status_over: ["本手结束", "Hand over"],
  status_stock: ["堂牌剩 {n} 张", "Stock: {n} left"],
  hand_size: ["手牌 {n} 张", "{n} cards in hand"],
  announced: ["报{count}", "announced {count} ({n})"],
  melds: ["摆出", "Melds"],
  row: ["打出/翻出", "Row"],
  hand: ["手牌", "Hand"],
  hu_unit: ["{hu}胡", "{hu} hu"],
  pending_discarded: ["{who} 打出", "{who} discard{s}"],
  pending_flipped: ["{who} 翻出", "{who} flip{s}"],
  prompt_discarded: ["{who}打出 {card}：{opts}？", "{who} discarded {card}: {opts}?"],
  prompt_flipped: ["{who}翻出 {card}：{opts}？", "{who} flipped {card}: {opts}?"],
  prompt_must_kai: ["——必须开（有开必开）", " — you must Kong (compulsory)"],
  prompt_must_kai_hu: ["——必须开或胡（有开必开）", " — you must Kong or Win (compulsory)"],
  prompt_discard: ["请打一张牌（点亮起的牌）", "Your discard: click a highlighted card"],
  prompt_opening: ["你是庄家：请打第一张牌", "You deal: make the opening discard"],
  prompt_opening_tianhu: ["你是庄家：天胡，或打第一张牌", "You deal: declare 天胡, or make the opening discard"],
  prompt_wait: ["等待其他玩家……", "Waiting for the others…"],
  prompt_wait_for: ["等待 {who} 出牌……", "Waiting for {who}…"],
  declared: ["你已选择：{action}，等待其他玩家……", "Declared: {action}. Waiting for the others…"],
  click_to_discard: ["点一张亮起的牌就打出它。", "Click a highlighted card to discard it."],
  discard_card: ["打 {card}", "Discard {card}"],
  chi_label: ["吃{card}：{pair}", "Chow {card} with {pair}"],
  chi_bai: [" + 摆 {groups}", " + lay down {groups}"],
  timer_secs: ["{n} 秒", "{n}s"],
  timer_default: ["到时自动：{action}", "At 0: {action}"],
  timer_next: ["到时自动开始下一手", "At 0 the next hand starts"],
  timer_bot: ["到时由机器人代打", "At 0 a bot plays for you"],
  hints_button: ["提示（下叫）", "Hints (waits)"],
  hints_title: ["提示", "Hints"],
  hint_waits: ["下叫：", "Waits (下叫): "],
  hint_discard: ["打{card} → 下叫", "Discard {card} → waits"],
  hints_discard_none: ["打哪张都不下叫", "No discard leaves a waiting hand"],
  hint_score: ["{hu}胡 {score}分", "{hu} hu, score {score}"],
  hint_live: ["还有 {n} 张没见", "{n} not yet seen"],
  spectating: ["你在观战。", "You are watching."],
  legend_small: ["小牌 一…十（黑字）", "small 一…十 (black)"],
  legend_big: ["大牌 壹…拾（红字）", "big 壹…拾 (red)"],
  legend_red: ["下划线：二七十 / 贰柒拾", "underlined: 二七十 / 贰柒拾"],
  card_small: ["小{face}", "small {rank} ({face})"],
  card_big: ["大{face}", "big {rank} ({face})"],
  card_ejs: ["二七十的牌", "a card of 二七十"],
  log_title: ["记录", "Log"],

  // result
  result_title: ["本手结果", "Result of the hand"],
  result_win: ["{who} 胡了（{source}）", "{who} win{s} ({source})"],
  result_card: ["胡的牌：{card}", "Winning card: {card}"],
  result_from_discard: ["（{who}打出，抬炮）", " (discarded by {who}, 抬炮)"],
  result_from_flip: ["（{who}翻出）", " (flipped by {who})"],
  result_dead: ["荒庄：无人胡牌，不付分", "Dead hand (荒庄): nobody wins, nobody pays"],
  result_hu: ["共 {hu} 胡，{tier}，规格 {base}", "{hu} hu, {tier}, base {base}"],
  result_fan: ["番：{fans}", "Doublings (番): {fans}"],
  result_score: ["得分：{score}", "Score: {score}"],
  result_payments: ["付分", "Payments"],
  result_totals: ["总分", "Match totals"],
  ready_mark: ["已准备", "ready"],
  ready_list: ["已准备：{who}", "Ready: {who}"],
  next_hand: ["下一手", "Next hand"],
  waiting_next: ["已准备，等待其他玩家……", "Ready. Waiting for the others…"],
  replay_this_hand: ["回放这一手", "Replay this hand"],
  match_over: ["比赛结束！", "The match is over!"],
  result_leader: ["第一名：{who}", "Winner: {who}"],
  result_leaders: ["并列第一：{who}", "Tied for first: {who}"],

  // history and replay
  no_matches: ["还没有对局记录。", "No matches yet."],
  err_load: ["加载失败：{message}", "Could not load: {message}"],
  hands_count: ["{n} 手", "{n} hands"],
  finished: ["已结束", "finished"],
  unfinished: ["未结束", "unfinished"],
  show_hands: ["查看各手", "Show hands"],
  hide_hands: ["收起", "Hide"],
  no_hands: ["没有记录的牌局", "No stored hands"],
  hand_n: ["第 {n} 手", "Hand {n}"],
  hand_win: ["{who} 胡，{score} 分", "{who} won, {score}"],
  hand_dead: ["荒庄", "dead hand (荒庄)"],
  replay: ["回放", "Replay"],
  replay_title: ["回放 #{id}", "Replay #{id}"],
  hand_missing: ["没有这一手：{id}", "There is no hand {id}"],
  no_frames: ["这一手没有记录", "This hand has no frames"],
  no_view: ["（无牌桌）", "(no table)"],
  first: ["« 开头", "« First"],
  prev: ["‹ 上一步", "‹ Prev"],
  next: ["下一步 ›", "Next ›"],
  last: ["结尾 »", "Last »"],
  step_of: ["第 {n} / {of} 步", "step {n} / {of}"],
  the_deal: ["发牌", "The deal"],
  replay_keys: ["← / → 键也可以翻步。", "The ← / → keys step too."],
};

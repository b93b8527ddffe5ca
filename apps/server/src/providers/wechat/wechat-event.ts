import {
  type WechatCallbackRequest,
  type WechatEvent,
  WechatEventFormatError,
  type WechatEventType,
} from './wechat.types.ts';
import { queryString, verifyWechatQuery, WECHAT_MAX_EVENT_AGE_SECONDS } from './wechat-signature.ts';
import { parseWechatXml, xmlText } from './wechat-xml.ts';

const SCENE_PREFIX = 'qrscene_';

/**
 * Verifies and parses one push to our callback (plaintext mode). subscribe events from a QR code
 * carry EventKey `qrscene_<scene>` and Ticket; SCAN events (the user already follows) carry
 * EventKey `<scene>` and Ticket; a plain subscribe (search, profile) has no EventKey.
 */
export function parseWechatEvent(
  token: string,
  request: WechatCallbackRequest,
  nowMs: number,
  maxAgeSeconds: number = WECHAT_MAX_EVENT_AGE_SECONDS,
): WechatEvent {
  verifyWechatQuery(token, request.query, nowMs, maxAgeSeconds);
  if (queryString(request.query, 'encrypt_type') === 'aes') {
    throw new WechatEventFormatError('encrypted (safe-mode) pushes are not supported; use plaintext mode');
  }
  const fields = parseWechatXml(request.rawBody);
  const openId = xmlText(fields, 'FromUserName');
  const toUserName = xmlText(fields, 'ToUserName');
  const msgType = xmlText(fields, 'MsgType');
  const createTimeText = xmlText(fields, 'CreateTime');
  if (!openId || !toUserName || !msgType || !createTimeText || !/^\d{1,12}$/.test(createTimeText)) {
    throw new WechatEventFormatError('event XML lacks FromUserName, ToUserName, MsgType or CreateTime');
  }
  const createTime = Number(createTimeText);
  const msgId = xmlText(fields, 'MsgId') || xmlText(fields, 'MsgID') || undefined;

  let type: WechatEventType = 'other';
  let rawEvent = msgType;
  let sceneStr: string | undefined;
  let ticket: string | undefined;
  let eventKey = '';
  if (msgType === 'event') {
    rawEvent = xmlText(fields, 'Event') ?? '';
    eventKey = xmlText(fields, 'EventKey') ?? '';
    ticket = xmlText(fields, 'Ticket') || undefined;
    if (rawEvent === 'subscribe') {
      type = 'subscribe';
      sceneStr = eventKey.startsWith(SCENE_PREFIX) ? eventKey.slice(SCENE_PREFIX.length) : undefined;
    } else if (rawEvent === 'SCAN') {
      type = 'SCAN';
      sceneStr = eventKey || undefined;
    } else if (rawEvent === 'unsubscribe') {
      type = 'unsubscribe';
    }
  }

  const event: WechatEvent = {
    type,
    openId,
    toUserName,
    createTime,
    rawEvent,
    idempotencyKey: msgId ? `msg:${msgId}` : `evt:${openId}:${createTime}:${rawEvent}:${eventKey}`,
  };
  if (sceneStr !== undefined) event.sceneStr = sceneStr;
  if (ticket !== undefined) event.ticket = ticket;
  if (msgId !== undefined) event.msgId = msgId;
  return event;
}

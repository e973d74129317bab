/*
 * zklock live locks: the cards and table rows the page draws, from the records of the "locks"
 * and "leadership" endpoints. No state and no requests: locks.js, loaded after this file, polls and keeps the
 * state of the lanes.
 */
var ZkLockCards = (function () {
	'use strict';

	/**
	 * A lock node's card; place is 0 for a holder, else its place among the waiters, 1 next;
	 * thread is the holder thread of a node this instance holds, else null.
	 */
	function renderNode(node, time, place, thread) {
		var card = document.createElement('div');
		card.className = 'node ' + (node.holder ? 'holder' : 'waiter') + ' mode-' + node.mode.toLowerCase()
			+ (node.thisInstance ? ' this-instance' : '');
		card.dataset.fencingToken = node.fencingToken;
		card.dataset.nodeName = node.nodeName;
		card.title = node.nodeName + '\nsession ' + node.sessionId + '\nqueued at ' + node.createdAt
			+ (node.holder && !node.thisInstance ? '\n"held ≤": granted before this page saw it wait' : '');
		card.appendChild(textElement('span', node.holder ? 'holder' : (place === 1 ? 'next' : '#' + place + ' in line'),
			'role'));
		card.appendChild(textElement('div', node.mode, 'mode'));
		card.appendChild(textElement('div', time, 'time'));
		card.appendChild(textElement('div', 'fencing token ' + node.fencingToken, 'token'));
		var who = node.instanceId ? node.instanceId : 'session …' + node.sessionId.slice(-6);
		if (node.thisInstance) {
			who = '★ ' + (thread ? 'thread ' + thread : 'this instance');
		}
		card.appendChild(textElement('div', who, 'who'));
		return card;
	}

	function holderThread(node, localHolds) {
		if (!node.thisInstance) {
			return null;
		}
		if (node.holderThread) {
			return node.holderThread;
		}
		var local = localHolds.get(node.fencingToken);
		return local ? local.holderThread : null;
	}

	/** The rows of the table of locks this instance holds; one muted row if none. */
	function heldRows(locks) {
		var rows = locks.map(function (lock) {
			var row = document.createElement('tr');
			[lock.displayPath || lock.lockPath, lock.mode, '#' + lock.fencingToken, formatDuration(lock.heldForMillis), lock.holderThread]
				.forEach(function (text) {
					var cell = document.createElement('td');
					cell.textContent = text;
					row.appendChild(cell);
				});
			return row;
		});
		if (rows.length === 0) {
			var row = document.createElement('tr');
			var cell = document.createElement('td');
			cell.colSpan = 5;
			cell.className = 'muted';
			cell.textContent = 'none right now';
			row.appendChild(cell);
			rows.push(row);
		}
		return rows;
	}

	/**
	 * The rows of the leadership table, one per role this instance is a candidate for, from GET
	 * /actuator/leadership (null if leadership is off or could not be read): who leads (★ this
	 * instance), this instance's state and term, and the candidates in the order they will lead.
	 */
	function roleRows(leadership) {
		var roles = leadership ? Object.keys(leadership.roles).map(function (name) { return leadership.roles[name]; }) : [];
		var rows = roles.map(function (role) {
			var row = document.createElement('tr');
			row.dataset.role = role.role;
			var leader = role.currentLeader;
			var who = leader ? (leader.thisInstance ? '★ ' : '') + (leader.instance || leader.description) : 'none';
			var term = role.term ? 'token ' + role.term.fencingToken + (role.term.active ? '' : ' (' + role.term.revocationReason
				+ ')') + ' since ' + new Date(role.term.since).toLocaleTimeString() : '—';
			var candidates = role.candidates ? role.candidates.map(function (candidate) {
				return (candidate.thisInstance ? '★ ' : '') + (candidate.instance || candidate.description);
			}).join(' ◀ ') : (role.candidatesError || '…');
			[role.role, who, role.state || 'no candidate', term, candidates].forEach(function (text, index) {
				var cell = document.createElement('td');
				cell.textContent = text;
				if (index === 1 && leader && leader.thisInstance) {
					cell.className = 'leads';
				}
				row.appendChild(cell);
			});
			return row;
		});
		if (rows.length === 0) {
			var row = document.createElement('tr');
			var cell = document.createElement('td');
			cell.colSpan = 5;
			cell.className = 'muted';
			cell.textContent = leadership ? 'this instance is a candidate for no role' : 'leadership is off';
			row.appendChild(cell);
			rows.push(row);
		}
		return rows;
	}

	/** The zklock health badge, from GET /actuator/health/zklock (null if it could not be read). */
	function renderHealth(badge, health) {
		var status = health ? health.status : 'UNKNOWN';
		badge.textContent = 'zklock ' + status;
		badge.className = 'badge ' + status.toLowerCase();
		if (health && health.details && health.details.connectionState) {
			badge.title = 'GET /actuator/health/zklock: ' + health.details.connectionState
				+ (health.details.connectString ? ' to ' + health.details.connectString : '');
		}
	}

	function textElement(tag, text, className) {
		var element = document.createElement(tag);
		element.textContent = text;
		if (className) {
			element.className = className;
		}
		return element;
	}

	function formatDuration(millis) {
		if (millis < 1000) {
			return Math.round(millis) + ' ms';
		}
		if (millis < 60000) {
			return (millis / 1000).toFixed(1) + ' s';
		}
		return Math.floor(millis / 60000) + ' min ' + Math.round((millis % 60000) / 1000) + ' s';
	}

	return {
		renderNode: renderNode,
		holderThread: holderThread,
		heldRows: heldRows,
		roleRows: roleRows,
		renderHealth: renderHealth,
		textElement: textElement,
		formatDuration: formatDuration
	};
}());

/*
 * zklock live locks: polls the "locks" actuator endpoint of this instance and draws each lock
 * path as a queue, holders first (readers that hold together side by side), waiters behind
 * them in the order ZooKeeper will serve them.
 *
 *   GET /actuator/locks               the locks this instance holds (exact hold times)
 *   GET /actuator/locks/<lock path>   the queue of a lock path over all instances, and the
 *                                     lock paths one level below it ("subPaths")
 *   GET /actuator/health/zklock       the connection to ZooKeeper
 *   GET /actuator/leadership          who leads each role this instance is a candidate for
 *
 * URL parameters: ?watch=inventory,orders/42 (default "inventory") and ?interval=500 (ms).
 * No build step, no dependencies.
 */
(function () {
	'use strict';

	var renderNode = ZkLockCards.renderNode;
	var holderThread = ZkLockCards.holderThread;
	var heldRows = ZkLockCards.heldRows;
	var roleRows = ZkLockCards.roleRows;
	var textElement = ZkLockCards.textElement;
	var formatDuration = ZkLockCards.formatDuration;

	var KEEP_IDLE_LANE_MS = 30000;

	var MAX_WAITER_CARDS = 12;

	var params = new URLSearchParams(window.location.search);
	var intervalMs = clamp(parseInt(params.get('interval'), 10) || 500, 100, 10000);
	var watched = parseWatch(params.get('watch') || 'inventory');

	// lock path -> { lastActive, peakWaiters, longestWaitMs }
	var lanes = new Map();
	// lock node name -> epoch millis (server clock) at which this page first saw it hold,
	// after having seen it wait; lets remote holders show a hold time rather than an age
	var promotedAt = new Map();
	var seenWaiting = new Set();

	var elements = {
		lanes: document.getElementById('lanes'),
		held: document.getElementById('held'),
		roles: document.getElementById('roles'),
		error: document.getElementById('error'),
		health: document.getElementById('health'),
		session: document.getElementById('session'),
		updated: document.getElementById('updated'),
		watch: document.getElementById('watch'),
		form: document.getElementById('watch-form'),
		interval: document.getElementById('interval')
	};

	elements.watch.value = watched.join(', ');
	elements.interval.textContent = formatDuration(intervalMs);
	elements.form.addEventListener('submit', function (event) {
		event.preventDefault();
		watched = parseWatch(elements.watch.value);
		var url = new URL(window.location.href);
		url.searchParams.set('watch', watched.join(','));
		window.history.replaceState(null, '', url);
		lanes.clear();
	});

	function parseWatch(text) {
		return text.split(',')
			.map(function (path) { return path.trim().replace(/^\/+|\/+$/g, ''); })
			.filter(function (path) { return path.length > 0; });
	}

	function clamp(value, min, max) {
		return Math.min(max, Math.max(min, value));
	}

	function endpointUrl(lockPath) {
		return 'actuator/locks/' + lockPath.split('/').map(encodeURIComponent).join('/');
	}

	/**
	 * GETs JSON. The first drawing reads synchronously, while the page loads, so that the page
	 * is drawn by the time it has loaded (a screenshot or a test taken at load time shows the
	 * queues, not an empty page); every later poll uses fetch.
	 */
	function getJson(url, whileLoading) {
		if (whileLoading) {
			try {
				var request = new XMLHttpRequest();
				request.open('GET', url, false);
				request.setRequestHeader('Accept', 'application/json');
				request.send();
				return Promise.resolve(parseAnswer(url, request.status >= 200 && request.status < 300, request.status,
					request.responseText));
			}
			catch (error) {
				return Promise.reject(error);
			}
		}
		return fetch(url, { cache: 'no-store', headers: { Accept: 'application/json' } }).then(function (response) {
			return response.text().then(function (body) {
				return parseAnswer(url, response.ok, response.status, body);
			});
		});
	}

	function parseAnswer(url, ok, status, body) {
		if (!ok) {
			var message = body;
			try {
				message = JSON.parse(body).message || JSON.parse(body).error || body;
			}
			catch (ignored) {
				// not JSON: show the text
			}
			throw new Error('GET ' + url + ' answered ' + status + ': ' + message);
		}
		return JSON.parse(body);
	}

	/** Draws now, then every interval; the first time while the page loads (see getJson). */
	function poll(whileLoading) {
		var started = Date.now();
		refresh(whileLoading).catch(showError).then(function () {
			window.setTimeout(function () { poll(false); }, Math.max(0, intervalMs - (Date.now() - started)));
		});
	}

	function refresh(whileLoading) {
		// the health shows also while the queues cannot be read (ZooKeeper down)
		var health = getJson('actuator/health/zklock', whileLoading).catch(function () { return null; })
			.then(function (health) { ZkLockCards.renderHealth(elements.health, health); });
		// who leads: shown also when leadership is off or the endpoint is not exposed
		var leadership = getJson('actuator/leadership', whileLoading).catch(function () { return null; })
			.then(function (roles) {
				var rows = roleRows(roles);
				elements.roles.replaceChildren.apply(elements.roles, rows);
			});
		var held = getJson('actuator/locks', whileLoading);
		var listings = Promise.all(watched.map(function (path) {
			return getJson(endpointUrl(path), whileLoading);
		}));
		return Promise.all([health, held, listings, leadership]).then(function (results) {
			var heldLocks = results[1];
			var watchedQueues = results[2];
			var paths = lanePaths(heldLocks, watchedQueues);
			return Promise.all(paths.map(function (path) {
				var known = watchedQueues.find(function (queue) { return queue.lockPath === path; });
				return known ? known : getJson(endpointUrl(path), whileLoading);
			})).then(function (queues) {
				hideError();
				renderHeld(heldLocks);
				renderLanes(queues, heldLocks);
			});
		});
	}

	/** The lock paths to draw: watched ones, those below them, those this instance holds, recent ones. */
	function lanePaths(heldLocks, watchedQueues) {
		var now = Date.now();
		var paths = new Set();
		watchedQueues.forEach(function (queue) {
			if (queue.nodes.length > 0 || queue.subPaths.length === 0) {
				paths.add(queue.lockPath);
			}
			queue.subPaths.forEach(function (path) { paths.add(path); });
		});
		heldLocks.locks.forEach(function (lock) { paths.add(lock.lockPath); });
		lanes.forEach(function (lane, path) {
			if (now - lane.lastActive < KEEP_IDLE_LANE_MS) {
				paths.add(path);
			}
		});
		return Array.from(paths).sort(function (a, b) {
			return a.localeCompare(b, undefined, { numeric: true });
		});
	}

	function renderHeld(heldLocks) {
		elements.session.textContent = heldLocks.sessionId || 'disconnected';
		elements.updated.textContent = new Date(heldLocks.timestamp).toLocaleTimeString();
		var rows = heldRows(heldLocks.locks);
		elements.held.replaceChildren.apply(elements.held, rows);
	}

	function renderLanes(queues, heldLocks) {
		// what this instance knows of its own holds, by fencing token: exact hold times and the
		// holder threads (also for a node the queue read saw before the endpoint listed it held)
		var localHolds = new Map();
		heldLocks.locks.forEach(function (lock) { localHolds.set(lock.fencingToken, lock); });
		var liveNodes = new Set();
		var sections = queues.map(function (queue) {
			queue.nodes.forEach(function (node) { liveNodes.add(node.nodeName); });
			return renderLane(queue, localHolds);
		});
		forgetGoneNodes(liveNodes);
		if (sections.length === 0) {
			var empty = document.createElement('p');
			empty.className = 'empty';
			empty.textContent = 'No lock path under ' + watched.join(', ') + ' exists in ZooKeeper right now. '
				+ 'Lock paths appear here while a lock on them is held or awaited.';
			sections.push(empty);
		}
		elements.lanes.replaceChildren.apply(elements.lanes, sections);
	}

	function renderLane(queue, localHolds) {
		var serverNow = Date.parse(queue.timestamp);
		var holders = queue.nodes.filter(function (node) { return node.holder; });
		var waiters = queue.nodes.filter(function (node) { return !node.holder; });
		var lane = laneState(queue.lockPath);
		if (queue.nodes.length > 0) {
			lane.lastActive = Date.now();
		}
		lane.peakWaiters = Math.max(lane.peakWaiters, waiters.length);
		waiters.forEach(function (node) {
			seenWaiting.add(node.nodeName);
			lane.longestWaitMs = Math.max(lane.longestWaitMs, node.ageMillis);
		});

		var section = document.createElement('section');
		section.className = 'lane';
		section.dataset.lockPath = queue.lockPath;
		var header = document.createElement('header');
		header.appendChild(textElement('h2', queue.displayPath || queue.lockPath));
		header.appendChild(textElement('span', holders.length + (holders.length === 1 ? ' holder' : ' holders')
			+ ' · ' + waiters.length + ' waiting · peak ' + lane.peakWaiters + ' waiting · longest wait seen '
			+ formatDuration(lane.longestWaitMs), 'stats'));
		section.appendChild(header);

		var row = document.createElement('div');
		row.className = 'queue';
		if (queue.nodes.length === 0) {
			row.appendChild(textElement('span', 'free', 'free'));
		}
		else {
			var holderBox = document.createElement('div');
			holderBox.className = 'holders';
			holders.forEach(function (node) {
				holderBox.appendChild(renderNode(node, holdTime(node, serverNow, localHolds), 0,
					holderThread(node, localHolds)));
			});
			row.appendChild(holderBox);
			if (waiters.length > 0) {
				row.appendChild(textElement('span', '◀', 'behind'));
				var waiterList = document.createElement('ol');
				waiterList.className = 'waiters';
				waiters.slice(0, MAX_WAITER_CARDS).forEach(function (node, index) {
					var item = document.createElement('li');
					item.appendChild(renderNode(node, 'waiting ' + formatDuration(node.ageMillis), index + 1, null));
					waiterList.appendChild(item);
				});
				row.appendChild(waiterList);
				if (waiters.length > MAX_WAITER_CARDS) {
					var rest = waiters.slice(MAX_WAITER_CARDS);
					row.appendChild(textElement('span', '+ ' + rest.length + ' more, waiting up to '
						+ formatDuration(rest[0].ageMillis), 'more'));
				}
			}
		}
		section.appendChild(row);
		return section;
	}

	/** The thread of this instance that holds the node, if it is this instance's. */
	function holdTime(node, serverNow, localHolds) {
		if (localHolds.has(node.fencingToken)) {
			return 'held ' + formatDuration(localHolds.get(node.fencingToken).heldForMillis);
		}
		if (seenWaiting.has(node.nodeName) && !promotedAt.has(node.nodeName)) {
			promotedAt.set(node.nodeName, serverNow);
		}
		if (promotedAt.has(node.nodeName)) {
			return 'held ' + formatDuration(serverNow - promotedAt.get(node.nodeName));
		}
		// granted before this page saw it: its age is its wait plus its hold so far
		return 'held ≤ ' + formatDuration(node.ageMillis);
	}

	function laneState(lockPath) {
		var lane = lanes.get(lockPath);
		if (!lane) {
			lane = { lastActive: 0, peakWaiters: 0, longestWaitMs: 0 };
			lanes.set(lockPath, lane);
		}
		return lane;
	}

	function forgetGoneNodes(liveNodes) {
		seenWaiting.forEach(function (name) {
			if (!liveNodes.has(name)) {
				seenWaiting.delete(name);
			}
		});
		promotedAt.forEach(function (at, name) {
			if (!liveNodes.has(name)) {
				promotedAt.delete(name);
			}
		});
	}

	function showError(error) {
		elements.error.textContent = error.message + ' (retrying every ' + formatDuration(intervalMs) + ')';
		elements.error.hidden = false;
	}

	function hideError() {
		elements.error.hidden = true;
	}

	poll(true);
}());
